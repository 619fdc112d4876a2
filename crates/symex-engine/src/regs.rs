//! A frame's register file: the scalar value of each slot.
//!
//! Every fork clones its state, and most of a register file is the same in the two siblings and in the
//! snapshot taken before a step that may fork: a symbolic state's file is in fixed-size chunks shared
//! copy-on-write ([`SharedRegs`]), so that a clone copies one pointer per chunk and a state copies a chunk
//! only when it first writes to it. A state that is never cloned (the concrete interpreter) keeps a plain
//! vector ([`OwnedRegs`]): registers are touched by every instruction, and there the chunk lookup and the
//! reference-count test of each write would be pure cost.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::rc::Rc;

/// A register file: the scalar value of each slot of one activation. Each domain picks the kind its
/// states need ([`crate::domain::Domain::Regs`]): one that forks shares, one that never does owns.
pub trait RegisterFile<V>:
    Index<usize, Output = V> + IndexMut<usize> + Clone + fmt::Debug + Default
{
    /// `n` slots holding `fill`, reusing this file's storage where it is its own.
    fn reset(&mut self, n: usize, fill: &V);
    /// Number of slots.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn get(&self, i: usize) -> Option<&V> {
        (i < self.len()).then(|| &self[i])
    }
    /// The values in slot order.
    fn iter<'a>(&'a self) -> impl Iterator<Item = &'a V>
    where
        V: 'a;
    /// Slot `i`, without the bounds check where the file can skip it (an owned vector).
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    unsafe fn slot_unchecked(&self, i: usize) -> &V {
        &self[i]
    }
    /// Slot `i` to write, without the bounds check where the file can skip it.
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    unsafe fn slot_unchecked_mut(&mut self, i: usize) -> &mut V {
        &mut self[i]
    }
}

/// A register file in one vector, for the states that are never cloned (concrete and concolic runs):
/// a slot is one indexed load or store away.
#[derive(Clone)]
pub struct OwnedRegs<V>(Vec<V>);

impl<V> Default for OwnedRegs<V> {
    fn default() -> Self {
        OwnedRegs(Vec::new())
    }
}

impl<V: Clone + fmt::Debug> RegisterFile<V> for OwnedRegs<V> {
    fn reset(&mut self, n: usize, fill: &V) {
        self.0.clear();
        self.0.resize(n, fill.clone());
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn iter<'a>(&'a self) -> impl Iterator<Item = &'a V>
    where
        V: 'a,
    {
        self.0.iter()
    }

    #[inline(always)]
    unsafe fn slot_unchecked(&self, i: usize) -> &V {
        debug_assert!(i < self.0.len(), "slot {i} of {}", self.0.len());
        // SAFETY: the caller's contract.
        unsafe { self.0.get_unchecked(i) }
    }

    #[inline(always)]
    unsafe fn slot_unchecked_mut(&mut self, i: usize) -> &mut V {
        debug_assert!(i < self.0.len(), "slot {i} of {}", self.0.len());
        // SAFETY: the caller's contract.
        unsafe { self.0.get_unchecked_mut(i) }
    }
}

impl<V> Index<usize> for OwnedRegs<V> {
    type Output = V;

    #[inline(always)]
    fn index(&self, i: usize) -> &V {
        &self.0[i]
    }
}

impl<V> IndexMut<usize> for OwnedRegs<V> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut V {
        &mut self.0[i]
    }
}

impl<V: fmt::Debug> fmt::Debug for OwnedRegs<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Bits of a slot index that select the entry within a chunk of a [`SharedRegs`]. Small chunks: the
/// step that forks writes a register in every sibling, which copies that register's chunk in each.
const CHUNK_BITS: u32 = 3;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A register file in chunks shared copy-on-write, for the states that fork (symbolic execution, BMC):
/// a clone copies one pointer per chunk, a write copies the chunk first when another state shares it.
#[derive(Clone)]
pub struct SharedRegs<V> {
    /// `len` entries and the unused tail of the last chunk (never read).
    chunks: Vec<Rc<[V; CHUNK]>>,
    len: usize,
}

impl<V> Default for SharedRegs<V> {
    fn default() -> Self {
        SharedRegs {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<V: Clone + fmt::Debug> RegisterFile<V> for SharedRegs<V> {
    fn reset(&mut self, n: usize, fill: &V) {
        let wanted = n.div_ceil(CHUNK);
        self.chunks.truncate(wanted);
        for c in &mut self.chunks {
            match Rc::get_mut(c) {
                Some(c) => c.fill(fill.clone()),
                None => *c = Rc::new(std::array::from_fn(|_| fill.clone())),
            }
        }
        while self.chunks.len() < wanted {
            self.chunks
                .push(Rc::new(std::array::from_fn(|_| fill.clone())));
        }
        self.len = n;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter<'a>(&'a self) -> impl Iterator<Item = &'a V>
    where
        V: 'a,
    {
        self.chunks.iter().flat_map(|c| c.iter()).take(self.len)
    }
}

impl<V> Index<usize> for SharedRegs<V> {
    type Output = V;

    /// Slot `i` (slot indices come from the function's body and are below its slot count).
    #[inline(always)]
    fn index(&self, i: usize) -> &V {
        debug_assert!(i < self.len, "slot {i} of {}", self.len);
        &self.chunks[i >> CHUNK_BITS][i & (CHUNK - 1)]
    }
}

impl<V: Clone> IndexMut<usize> for SharedRegs<V> {
    /// Slot `i`, its chunk made this file's own first.
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut V {
        debug_assert!(i < self.len, "slot {i} of {}", self.len);
        &mut Rc::make_mut(&mut self.chunks[i >> CHUNK_BITS])[i & (CHUNK - 1)]
    }
}

impl<V: Clone + fmt::Debug> fmt::Debug for SharedRegs<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Register files of returned activations, kept for the next call so that a call allocates nothing.
/// A clone is empty: a forked state starts its own pool rather than copy this one's. Boxed, and absent
/// until a call returns: every waiting state of an exploration holds a pool.
#[allow(clippy::box_collection)] // the box is what makes the absent pool 8 bytes instead of 24
pub struct RegPool<R>(Option<Box<Vec<R>>>);

impl<R> Default for RegPool<R> {
    fn default() -> Self {
        RegPool(None)
    }
}

impl<R> Clone for RegPool<R> {
    fn clone(&self) -> Self {
        RegPool::default()
    }
}

impl<R> fmt::Debug for RegPool<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RegPool({})", self.0.as_ref().map_or(0, |v| v.len()))
    }
}

impl<R> RegPool<R> {
    /// A register file of `n` slots holding `fill`.
    pub fn take<V>(&mut self, n: usize, fill: &V) -> R
    where
        R: RegisterFile<V>,
    {
        let mut r = self.0.as_mut().and_then(|v| v.pop()).unwrap_or_default();
        r.reset(n, fill);
        r
    }

    /// Keeps `r` for a later call.
    pub fn give(&mut self, r: R) {
        self.0.get_or_insert_with(Default::default).push(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_shares_chunks_until_written() {
        let mut a: SharedRegs<u32> = SharedRegs::default();
        a.reset(40, &0);
        (0..40).for_each(|i| a[i] = i as u32);
        let mut b = a.clone();
        b[17] = 1000;
        assert_eq!(a[17], 17);
        assert_eq!(b[17], 1000);
        // Only the written chunk was copied.
        let written = 17 >> CHUNK_BITS;
        for k in 0..a.chunks.len() {
            assert_eq!(
                Rc::ptr_eq(&a.chunks[k], &b.chunks[k]),
                k != written,
                "chunk {k}"
            );
        }
        assert_eq!(
            a.iter().copied().collect::<Vec<_>>(),
            (0..40).collect::<Vec<_>>()
        );
        assert_eq!(b.iter().count(), 40);
        assert_eq!(b.get(40), None);
    }

    #[test]
    fn reset_refills_a_shared_file_without_touching_the_other() {
        let mut a: SharedRegs<u32> = SharedRegs::default();
        a.reset(20, &7);
        let keep = a.clone();
        a.reset(3, &0);
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![0, 0, 0]);
        assert!(keep.iter().all(|&v| v == 7) && keep.len() == 20);
        a.reset(33, &5);
        assert_eq!(a.len(), 33);
        assert!(a.iter().all(|&v| v == 5));
    }
}
