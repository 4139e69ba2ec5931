//! The fields four pieces from a PC, in classes that finish alike.
//!
//! A walk with five unknown pieces ends on fields five pieces from a PC; each move of such
//! a field leads to a field four pieces from a PC, and what finishes that field depends
//! only on its moves as (piece, class of the child three pieces from a PC,
//! [`ThreeLeft`]). So each field of that layer gets the class of its moves, once per graph,
//! the first time a walk needs them: a walk then reads a child's class instead of looking
//! up and classing its moves.

use super::edge::{link, unlink};
use super::layer::{Layer, links_of};
use super::three_left::ThreeLeft;
use std::sync::{Arc, OnceLock};

/// A graph's [`FourLeft`], made the first time it is asked for and shared by the graph's
/// clones. Not part of what a graph is: two graphs are equal whether they made it or not.
#[derive(Clone, Debug, Default)]
pub(crate) struct LazyFourLeft(Arc<OnceLock<Option<FourLeft>>>);

impl LazyFourLeft {
    /// The classes, made by `make` if they are not yet.
    pub(crate) fn get_or_make(&self, make: impl FnOnce() -> Option<FourLeft>) -> Option<&FourLeft> {
        self.0.get_or_init(make).as_ref()
    }

    /// Keeps `four` as the classes, unless they are made already.
    pub(crate) fn set(&self, four: FourLeft) {
        let _ = self.0.set(Some(four));
    }

    /// The classes, if they are made (`Some(None)`: made, and the graph has none).
    pub(crate) fn get(&self) -> Option<Option<&FourLeft>> {
        self.0.get().map(Option::as_ref)
    }

    /// Whether the classes are made.
    #[cfg(test)]
    pub(crate) fn is_made(&self) -> bool {
        self.0.get().is_some()
    }
}

impl PartialEq for LazyFourLeft {
    fn eq(&self, _: &LazyFourLeft) -> bool {
        true
    }
}

impl Eq for LazyFourLeft {}

/// The classes of the fields four pieces from a PC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FourLeft {
    /// The layer of those fields.
    pub(crate) layer: usize,
    /// Each field's class, by index.
    class_of: Vec<u32>,
    /// Where each class's moves start in `links` (one more entry than classes).
    starts: Vec<u32>,
    /// Each class's moves as [`link`]s to the children's classes in [`ThreeLeft`], sorted,
    /// without repeats.
    links: Vec<u32>,
}

impl FourLeft {
    /// The classes of the fields four pieces from a PC of a graph's `layers`, its fields
    /// read in `runs` runs ([`super::parallel::by_runs`]), which number the classes the
    /// same way; `None` when the graph has no such layer.
    pub(crate) fn in_runs(layers: &[Layer], three: &ThreeLeft, runs: usize) -> Option<FourLeft> {
        let layer = three.layer.checked_sub(1)?;
        let classes =
            super::parallel::classes_by_block_moves(layers[layer].len(), runs, |block, out| {
                // The children of a block's moves, looked up together.
                let (starts, links) = links_of(layers, layer, block);
                for field in starts.windows(2) {
                    let links = &links[field[0] as usize..field[1] as usize];
                    for (piece, child) in links.iter().filter_map(|&l| unlink(l)) {
                        out.moves.push(link(piece, three.class(child)));
                    }
                    out.end_field();
                }
            });
        Some(FourLeft {
            layer,
            class_of: classes.class_of,
            starts: classes.starts,
            links: classes.moves,
        })
    }

    /// Classes from their parts ([`FourLeft::parts`]), which the caller has checked.
    pub(crate) fn from_parts(
        layer: usize,
        class_of: Vec<u32>,
        starts: Vec<u32>,
        links: Vec<u32>,
    ) -> FourLeft {
        FourLeft {
            layer,
            class_of,
            starts,
            links,
        }
    }

    /// The classes' starts in the links, their links, and each field's class.
    pub(crate) fn parts(&self) -> (&[u32], &[u32], &[u32]) {
        (&self.starts, &self.links, &self.class_of)
    }

    /// The class of field `field` of [`FourLeft::layer`].
    #[inline]
    pub(crate) fn class(&self, field: u32) -> u32 {
        self.class_of[field as usize]
    }

    /// The moves of the fields of class `class`, as [`link`]s to their children's classes
    /// three pieces from a PC, sorted.
    #[inline]
    pub(crate) fn links(&self, class: u32) -> &[u32] {
        &self.links[self.starts[class as usize] as usize..self.starts[class as usize + 1] as usize]
    }

    /// Adds to `queues` the queues of four pieces that finish the fields of class `class`
    /// with `hold` in the slot: word `8 * p + a` holds the queues `p a b x` as bits
    /// `8 * b + x`. A move (piece `p`, child of class `c` three pieces from a PC, read in
    /// `three`) adds after `p` what finishes `c` with `hold`, and when the held piece may be
    /// placed (`p` is `hold`, with the hold rule), after each other piece `u` what finishes
    /// `c` holding `u`. A class has a few moves, so this costs less than keeping the queues
    /// of every class asked for.
    pub(crate) fn add_queues(
        &self,
        three: &ThreeLeft,
        hold_rule: bool,
        class: u32,
        hold: u8,
        queues: &mut [u64; 64],
    ) {
        let mut add = |after: u8, finishes: &[u64; 8]| {
            let words = &mut queues[8 * usize::from(after)..][..8];
            for (w, f) in words.iter_mut().zip(finishes) {
                *w |= f;
            }
        };
        for (piece, child) in self.links(class).iter().filter_map(|&l| unlink(l)) {
            let finishes = three.finishes(child);
            add(piece, &finishes[usize::from(hold)]);
            if hold_rule && piece == hold {
                for u in (0..7u8).filter(|&u| u != hold) {
                    add(u, &finishes[usize::from(u)]);
                }
            }
        }
    }

    /// The number of classes.
    #[cfg(test)]
    pub(crate) fn classes(&self) -> usize {
        self.starts.len() - 1
    }
}
