//! What both trainers (`learn fit`, `learn net`) keep from epoch to epoch: each epoch's losses,
//! the best weights so far, and when to stop (no better held-out loss for `patience` epochs).

/// What one epoch measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    pub train_loss: f64,
    pub held_out_loss: f64,
}

/// The epochs of a run and the best weights among them.
pub struct EarlyStop<W> {
    /// Epoch 0 is the starting weights.
    pub epochs: Vec<Epoch>,
    pub best: W,
    pub best_epoch: usize,
    best_loss: f64,
    patience: usize,
    /// Whether positions are held out (else the training loss decides: a tiny data set).
    judge_held_out: bool,
}

impl<W: Clone> EarlyStop<W> {
    /// Starts from `start`, whose losses are `first` (epoch 0).
    pub fn new(start: &W, first: Epoch, judge_held_out: bool, patience: usize) -> EarlyStop<W> {
        let mut stop = EarlyStop {
            epochs: vec![first],
            best: start.clone(),
            best_epoch: 0,
            best_loss: 0.0,
            patience,
            judge_held_out,
        };
        stop.best_loss = stop.judged(&first);
        stop
    }

    fn judged(&self, e: &Epoch) -> f64 {
        if self.judge_held_out {
            e.held_out_loss
        } else {
            e.train_loss
        }
    }

    /// Records epoch `epoch` of `weights`; returns whether training should stop.
    pub fn after_epoch(&mut self, epoch: usize, weights: &W, e: Epoch) -> bool {
        self.epochs.push(e);
        if self.judged(&e) < self.best_loss {
            self.best_loss = self.judged(&e);
            self.best = weights.clone();
            self.best_epoch = epoch;
            false
        } else {
            epoch - self.best_epoch >= self.patience
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(train: f64, held_out: f64) -> Epoch {
        Epoch { train_loss: train, held_out_loss: held_out }
    }

    /// The best held-out epoch is kept, and training stops `patience` epochs after it even
    /// while the training loss still falls.
    #[test]
    fn keeps_the_best_held_out_epoch_and_stops_after_patience() {
        let mut stop = EarlyStop::new(&0, e(1.0, 1.0), true, 2);
        assert!(!stop.after_epoch(1, &1, e(0.8, 0.7)));
        assert!(!stop.after_epoch(2, &2, e(0.6, 0.75)));
        assert!(stop.after_epoch(3, &3, e(0.4, 0.9)));
        assert_eq!((stop.best, stop.best_epoch, stop.epochs.len()), (1, 1, 4));
        // Without held-out positions the training loss decides.
        let mut by_train = EarlyStop::new(&0, e(1.0, 0.0), false, 1);
        assert!(!by_train.after_epoch(1, &1, e(0.5, 0.0)));
        assert_eq!(by_train.best, 1);
    }
}
