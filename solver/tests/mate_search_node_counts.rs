//! The mate search that `go mate` and `solve` run stays what it was, node for node, on the
//! YaneuraOu samples (one thread, tsume rules): the composer's report's questions about a
//! position's other moves (a root with moves left out, depth-limited cook questions) are
//! options of the search, not changes to it.
//! `data/go_mate_nodes.txt` holds the counts (its first line says what changed them since
//! c63f430); a change meant to alter the search updates it, and says why in its commit.

mod support;

#[test]
fn the_mate_search_is_node_for_node_what_it_was() {
    let expected = include_str!("data/go_mate_nodes.txt");
    let expected: Vec<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
    let problems = support::solve_tsume_one_thread(&[
        "problems/yaneuraou_mate9_100.sfen",
        "problems/yaneuraou_mate5_100.sfen",
    ]);
    let got: Vec<String> = problems
        .iter()
        .map(|p| {
            let plies = p["plies"].as_u64().map_or("None".to_string(), |n| n.to_string());
            format!(
                "{} {} {} {}",
                p["id"].as_str().unwrap_or_default(),
                p["outcome"].as_str().unwrap_or_default(),
                plies,
                p["nodes"]
            )
        })
        .collect();
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g, e);
    }
}
