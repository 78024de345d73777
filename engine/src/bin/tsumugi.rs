//! `tsumugi`: the USI playing engine (front end under construction).

fn main() {
    eprintln!("tsumugi: USI front end not built yet");
}
