//! The contents of one memory object: its bytes and which of them were written (uninitialised bytes are
//! inputs when loaded), stored lazily.
//!
//! Small objects (at most [`FLAT_MAX`] bytes, nearly all of them) are one vector and one bitmap: loads and
//! stores index them directly, the hot path of concrete stretches. Larger objects are pages of [`PAGE`]
//! bytes created when first written; a byte of a page that does not exist is the object's fill (zero for
//! `calloc`, globals and `memset`'s value after a whole-object `memset`; the unwritten value otherwise)
//! with the fill's initialisation state. So a 4 GiB `malloc` or a 400 MB zero-initialised global costs a
//! few words of host memory until written, a `memset` of whole pages shares one page, and a copy of whole
//! pages (`realloc`, `memcpy` between blocks at equal page offsets) shares the source's pages
//! copy-on-write instead of copying bytes.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Objects up to this many bytes are stored flat.
pub const FLAT_MAX: u64 = 1 << 16;
const PAGE_BITS: u32 = 12;
/// Bytes of a page of a large object.
pub const PAGE: u64 = 1 << PAGE_BITS;

/// The all-ones mask of each length from 0 to 64 bits: every load and store tests or sets its bytes'
/// bits in an initialisation map, and a load from here replaces two tests and a shift by a variable
/// amount.
static LOW_BITS: [u64; 65] = {
    let mut m = [0u64; 65];
    let mut n = 1;
    while n <= 64 {
        m[n] = u64::MAX >> (64 - n);
        n += 1;
    }
    m
};

/// The mask of bits `b..b+n` of a word (`b + n <= 64`).
#[inline(always)]
fn word_mask(b: usize, n: usize) -> u64 {
    LOW_BITS[n.min(64)] << b
}

/// Bits `off..off+n` of a bitmap that span more than one word (`off % 64 + n > 64`): the mask of the
/// first word (index `off / 64`), the indices of the words wholly inside, and the mask of the last word
/// (index: the end of those).
#[inline(always)]
fn spanned_words(off: usize, n: usize) -> (u64, std::ops::Range<usize>, u64) {
    let end = off + n;
    let first = u64::MAX << (off % 64);
    let last = word_mask(0, (end - 1) % 64 + 1);
    (first, off / 64 + 1..(end - 1) / 64, last)
}

/// Which bytes of a flat object or a page have been written.
#[derive(Clone, Debug)]
pub struct InitMap {
    /// `None`: every byte is initialised (the common case, and free to check).
    words: Option<Vec<u64>>,
}

impl InitMap {
    /// The map of `size` bytes, all written or none; `None` when the host cannot give its memory.
    fn try_new(size: usize, initialised: bool) -> Option<Self> {
        if initialised || size == 0 {
            return Some(InitMap { words: None });
        }
        let mut words = Vec::new();
        words.try_reserve_exact(size.div_ceil(64)).ok()?;
        words.resize(size.div_ceil(64), 0);
        Some(InitMap { words: Some(words) })
    }

    fn new(size: usize, initialised: bool) -> Self {
        Self::try_new(size, initialised).expect("a small bitmap")
    }

    /// Whether bytes `off..off+n` are all initialised.
    #[inline(always)]
    pub fn is_init(&self, off: usize, n: usize) -> bool {
        match &self.words {
            None => true,
            Some(w) => {
                let (i, b) = (off / 64, off % 64);
                // Accesses of up to 8 bytes rarely straddle a 64-byte word: one mask test.
                if b + n <= 64 {
                    let m = word_mask(b, n);
                    w[i] & m == m
                } else {
                    let (first, middle, last) = spanned_words(off, n);
                    w[i] & first == first
                        && w[middle.clone()].iter().all(|&x| x == u64::MAX)
                        && w[middle.end] & last == last
                }
            }
        }
    }

    /// Marks bytes `off..off+n` initialised.
    #[inline(always)]
    pub fn set_init(&mut self, off: usize, n: usize) {
        if let Some(w) = &mut self.words {
            let (i, b) = (off / 64, off % 64);
            if b + n <= 64 {
                w[i] |= word_mask(b, n);
            } else {
                // A struct copied by value: whole words at once.
                let (first, middle, last) = spanned_words(off, n);
                w[i] |= first;
                w[middle.clone()].fill(u64::MAX);
                w[middle.end] |= last;
            }
        }
    }

    /// Sets byte `i`'s state; `len` is the map's size (a fully initialised map is expanded to clear a bit).
    fn set_bit(&mut self, i: usize, init: bool, len: usize) {
        if init {
            self.set_init(i, 1);
            return;
        }
        let w = self
            .words
            .get_or_insert_with(|| vec![u64::MAX; len.div_ceil(64)]);
        w[i / 64] &= !(1 << (i % 64));
    }
}

/// One page of a large object.
#[derive(Clone, Debug)]
struct Page<B> {
    bytes: Vec<B>,
    init: InitMap,
    /// Every byte is the first one, with the same initialisation state (a page of a `memset` or of
    /// the fill, never written since): a range of the object, read without a look at each byte.
    uniform: bool,
}

impl<B: Clone> Page<B> {
    fn uniform(b: B, init: bool) -> Self {
        Page {
            bytes: vec![b; PAGE as usize],
            init: InitMap::new(PAGE as usize, init),
            uniform: true,
        }
    }
}

/// A large object: the pages written so far over a fill.
#[derive(Clone, Debug)]
struct Paged<B> {
    size: u64,
    /// The value of every byte outside `pages`.
    fill: B,
    /// Whether the bytes outside `pages` count as written.
    fill_init: bool,
    pages: BTreeMap<u64, Rc<Page<B>>>,
}

impl<B: Clone> Paged<B> {
    #[inline]
    fn byte(&self, i: u64) -> (&B, bool) {
        match self.pages.get(&(i >> PAGE_BITS)) {
            Some(p) => {
                let k = (i & (PAGE - 1)) as usize;
                (&p.bytes[k], p.init.is_init(k, 1))
            }
            None => (&self.fill, self.fill_init),
        }
    }

    /// Page `p`, created from the fill when absent and copied first when shared.
    fn page_mut(&mut self, p: u64) -> &mut Page<B> {
        let (fill, init) = (&self.fill, self.fill_init);
        let page = self
            .pages
            .entry(p)
            .or_insert_with(|| Rc::new(Page::uniform(fill.clone(), init)));
        let page = Rc::make_mut(page);
        page.uniform = false;
        page
    }

    /// How many bytes from `off` (a page boundary or not) are initialised and equal to `c`, at most
    /// `max`. A range of pages never written past the fill is one step, and a uniform page one step
    /// each: the host work is per page at most.
    fn uniform_run(&self, off: u64, c: &B, max: u64) -> u64
    where
        B: PartialEq,
    {
        let end = off.saturating_add(max).min(self.size);
        let fill_matches = self.fill_init && self.fill == *c;
        let mut pos = off;
        while pos < end {
            let pg = pos >> PAGE_BITS;
            let k = (pos & (PAGE - 1)) as usize;
            let Some(page) = self.pages.get(&pg) else {
                if !fill_matches {
                    return pos - off;
                }
                // Every page up to the next stored one holds the fill.
                let next = self
                    .pages
                    .range(pg + 1..)
                    .next()
                    .map_or(u64::MAX, |(&p, _)| p << PAGE_BITS);
                pos = next.min(end);
                continue;
            };
            let len = (PAGE as usize - k).min((end - pos) as usize);
            let same = |i: usize| page.init.is_init(i, 1) && page.bytes[i] == *c;
            if page.uniform {
                if !same(0) {
                    return pos - off;
                }
                pos += len as u64;
                continue;
            }
            match (k..k + len).find(|&i| !same(i)) {
                Some(i) => return pos - off + (i - k) as u64,
                None => pos += len as u64,
            }
        }
        end - off
    }

    /// The segments of `off..off+n` that lie in one page each: (page, offset in it, length).
    fn segments(off: u64, n: u64) -> impl Iterator<Item = (u64, usize, usize)> {
        let end = off + n;
        let mut pos = off;
        std::iter::from_fn(move || {
            if pos >= end {
                return None;
            }
            let k = (PAGE - (pos & (PAGE - 1))).min(end - pos);
            let seg = (pos >> PAGE_BITS, (pos & (PAGE - 1)) as usize, k as usize);
            pos += k;
            Some(seg)
        })
    }
}

#[derive(Clone, Debug)]
enum Repr<B> {
    Flat { bytes: Vec<B>, init: InitMap },
    Paged(Paged<B>),
}

/// `dst.fill(b)`, with up to 16 bytes (nearly every local: scalars, small structs) written by two
/// fixed-size stores that may overlap, inline: `fill` calls libc's `memset` for any length, and the call
/// costs more than so few bytes.
#[inline(always)]
fn fill_bytes<B: Clone>(dst: &mut [B], b: B) {
    let n = dst.len();
    match n {
        0 => {}
        1..=3 => {
            dst[0] = b.clone();
            dst[n / 2] = b.clone();
            dst[n - 1] = b;
        }
        4..=7 => {
            fill_fixed::<B, 4>(&mut dst[..4], &b);
            fill_fixed::<B, 4>(&mut dst[n - 4..], &b);
        }
        8..=16 => {
            fill_fixed::<B, 8>(&mut dst[..8], &b);
            fill_fixed::<B, 8>(&mut dst[n - 8..], &b);
        }
        _ => dst.fill(b),
    }
}

/// Fills `dst`, whose length is `N`: a fill of known length, which the compiler writes as stores.
#[inline(always)]
fn fill_fixed<B: Clone, const N: usize>(dst: &mut [B], b: &B) {
    let dst: &mut [B; N] = dst.try_into().expect("a slice of N bytes");
    dst.fill(b.clone());
}

/// The bytes of one object and their initialisation state.
#[derive(Clone, Debug)]
pub struct Contents<B> {
    repr: Repr<B>,
}

impl<B: Clone> Contents<B> {
    /// `size` bytes of `fill`, counted as written when `initialised`; `None` when the host refuses the
    /// memory of a flat object (never an abort).
    pub fn try_new(size: u64, fill: B, initialised: bool) -> Option<Self> {
        if size > FLAT_MAX {
            return Some(Contents {
                repr: Repr::Paged(Paged {
                    size,
                    fill,
                    fill_init: initialised,
                    pages: BTreeMap::new(),
                }),
            });
        }
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(size as usize).ok()?;
        bytes.resize(size as usize, fill);
        let init = InitMap::try_new(size as usize, initialised)?;
        Some(Contents {
            repr: Repr::Flat { bytes, init },
        })
    }

    /// Makes these flat contents `size` bytes of `fill` (counted as written when `initialised`), reusing
    /// their host memory: a dead local's object refilled for the next one. False (nothing changed) for
    /// paged contents or a size that is not flat.
    #[inline]
    pub fn refill(&mut self, size: u64, fill: B, initialised: bool) -> bool {
        let Repr::Flat { bytes, init } = &mut self.repr else {
            return false;
        };
        if size > FLAT_MAX {
            return false;
        }
        // The same size again (a local's next lifetime, nearly always): overwritten where it lies.
        if bytes.len() == size as usize {
            fill_bytes(bytes, fill);
        } else {
            bytes.clear();
            bytes.resize(size as usize, fill);
        }
        match (&mut init.words, initialised || size == 0) {
            (_, true) => init.words = None,
            // A local of at most 64 bytes (nearly all) has a one-word map: cleared by a store, where
            // `fill` called `memset`.
            (Some(words), false) if words.len() == (size as usize).div_ceil(64) => {
                match &mut words[..] {
                    [w] => *w = 0,
                    all => all.fill(0),
                }
            }
            (Some(words), false) => {
                words.clear();
                words.resize((size as usize).div_ceil(64), 0);
            }
            (None, false) => *init = InitMap::new(size as usize, false),
        }
        true
    }

    /// Written bytes, stored flat whatever their number (small runtime objects, constant aggregates).
    pub fn from_bytes(bytes: Vec<B>) -> Self {
        let init = InitMap::new(bytes.len(), true);
        Contents {
            repr: Repr::Flat { bytes, init },
        }
    }

    /// An initialised image of `size` bytes: `prefix`, then `zero` up to the end (a global's initializer
    /// whose trailing zeros are not stored).
    pub fn image(size: u64, prefix: Vec<B>, zero: B) -> Self {
        if size <= FLAT_MAX {
            let mut bytes = prefix;
            bytes.resize(size as usize, zero);
            return Self::from_bytes(bytes);
        }
        let n = prefix.len();
        let mut c = Self::try_new(size, zero, true).expect("paged contents allocate nothing");
        c.write(0, n, |out| out.clone_from_slice(&prefix));
        c
    }

    /// Size in bytes.
    #[inline(always)]
    pub fn size(&self) -> u64 {
        match &self.repr {
            Repr::Flat { bytes, .. } => bytes.len() as u64,
            Repr::Paged(p) => p.size,
        }
    }

    /// The whole contents as one slice, for a small (flat) object.
    #[inline(always)]
    pub fn flat(&self) -> Option<&[B]> {
        match &self.repr {
            Repr::Flat { bytes, .. } => Some(bytes),
            Repr::Paged(_) => None,
        }
    }

    /// The whole contents as one slice to write (the caller marks what it writes), for a flat object.
    #[inline(always)]
    pub fn flat_mut(&mut self) -> Option<&mut [B]> {
        match &mut self.repr {
            Repr::Flat { bytes, .. } => Some(bytes),
            Repr::Paged(_) => None,
        }
    }

    /// Whether the object is flat and some of its bytes may never have been written (cheap: a flat
    /// object whose bytes were all written since [`Self::settle_init`] says no).
    #[inline(always)]
    pub fn flat_with_uninitialised(&self) -> bool {
        matches!(&self.repr, Repr::Flat { init, .. } if init.words.is_some())
    }

    /// Whether these are flat contents whose bytes, if any, start with `fill` (of an object untouched
    /// since it was filled with it: then every byte is `fill`).
    #[inline]
    pub fn flat_filled_with(&self, fill: &B) -> bool
    where
        B: PartialEq,
    {
        matches!(&self.repr, Repr::Flat { bytes, .. } if bytes.first().is_none_or(|b| b == fill))
    }

    /// Forgets the map of written bytes of a flat object all of whose bytes were written.
    pub fn settle_init(&mut self) {
        if let Repr::Flat { bytes, init } = &mut self.repr {
            if init.is_init(0, bytes.len()) {
                init.words = None;
            }
        }
    }

    /// Whether bytes `off..off+n` were all written.
    #[inline(always)]
    pub fn is_init(&self, off: usize, n: usize) -> bool {
        match &self.repr {
            Repr::Flat { init, .. } => init.is_init(off, n),
            Repr::Paged(p) => {
                Paged::<B>::segments(off as u64, n as u64).all(|(pg, k, len)| {
                    match p.pages.get(&pg) {
                        Some(page) => page.init.is_init(k, len),
                        None => p.fill_init,
                    }
                })
            }
        }
    }

    /// How many of bytes `off..off+n` were never written (without listing them).
    pub fn count_uninitialised(&self, off: usize, n: usize) -> u64 {
        match &self.repr {
            Repr::Flat { init, .. } if init.is_init(off, n) => 0,
            Repr::Flat { init, .. } => {
                (off..off + n).filter(|&i| !init.is_init(i, 1)).count() as u64
            }
            Repr::Paged(p) => Paged::<B>::segments(off as u64, n as u64)
                .map(|(pg, k, len)| match p.pages.get(&pg) {
                    Some(page) if page.init.is_init(k, len) => 0,
                    Some(page) => (k..k + len).filter(|&i| !page.init.is_init(i, 1)).count() as u64,
                    None if p.fill_init => 0,
                    None => len as u64,
                })
                .sum(),
        }
    }

    /// Positions among `off..off+n` that were never written.
    pub fn uninitialised(&self, off: usize, n: usize) -> Vec<usize> {
        match &self.repr {
            Repr::Flat { init, .. } => (off..off + n).filter(|&i| !init.is_init(i, 1)).collect(),
            Repr::Paged(p) => (off..off + n).filter(|&i| !p.byte(i as u64).1).collect(),
        }
    }

    /// Bytes `off..off+n` of a flat object when all of them were written: the one lookup of a load's
    /// common case.
    #[inline(always)]
    pub fn read_written(&self, off: usize, n: usize) -> Option<&[B]> {
        match &self.repr {
            Repr::Flat { bytes, init } if init.is_init(off, n) => Some(&bytes[off..off + n]),
            _ => None,
        }
    }

    /// Whether bytes `off..off+n` lie inside the object, unless it is flat with never-written bytes and
    /// a heap block (`heap`): [`Self::size`] and [`Self::flat_with_uninitialised`] of a plain access,
    /// its representation looked at once.
    #[inline(always)]
    pub fn plainly_within(&self, off: u64, n: u64, heap: bool) -> bool {
        match &self.repr {
            Repr::Flat { bytes, init } => {
                off + n <= bytes.len() as u64 && !(heap && init.words.is_some())
            }
            Repr::Paged(p) => off + n <= p.size,
        }
    }

    /// Bytes `off..off+n` of a flat object when they lie inside it and were all written, and the object
    /// is no heap block with never-written bytes (`heap`; its first access makes those inputs): what
    /// a scalar load's common case (and a plain copy's source) reads, its object's representation
    /// looked at once (the bounds, the heap block's state and the written bytes had each matched it).
    #[inline(always)]
    pub fn plain_read(&self, off: u64, n: u64, heap: bool) -> Option<&[B]> {
        let Repr::Flat { bytes, init } = &self.repr else {
            return None;
        };
        // `off` is below the address layout's region size and `n` a scalar's or a small copy's: no
        // overflow.
        let (off, end) = (off as usize, (off + n) as usize);
        if end > bytes.len() {
            return None;
        }
        match &init.words {
            None => Some(&bytes[off..end]),
            Some(_) if !heap && init.is_init(off, n as usize) => Some(&bytes[off..end]),
            Some(_) => None,
        }
    }

    /// Bytes `off..off+n` of a flat object, marked written, for the caller to fill: the one lookup of a
    /// store's common case, which writes them in place (through [`Self::write`] the store's closure
    /// was called out of line, a call per store). `None` for a paged object (nothing marked).
    #[inline(always)]
    pub fn written_flat_mut(&mut self, off: usize, n: usize) -> Option<&mut [B]> {
        match &mut self.repr {
            Repr::Flat { bytes, init } => {
                init.set_init(off, n);
                Some(&mut bytes[off..off + n])
            }
            Repr::Paged(_) => None,
        }
    }

    /// Bytes `off..off+n` (borrowed unless they span pages or lie in a page never written).
    #[inline(always)]
    pub fn read(&self, off: usize, n: usize) -> Cow<'_, [B]> {
        match &self.repr {
            Repr::Flat { bytes, .. } => Cow::Borrowed(&bytes[off..off + n]),
            Repr::Paged(p) => {
                let (pg, k) = (
                    (off as u64) >> PAGE_BITS,
                    (off as u64 & (PAGE - 1)) as usize,
                );
                if k + n <= PAGE as usize {
                    return match p.pages.get(&pg) {
                        Some(page) => Cow::Borrowed(&page.bytes[k..k + n]),
                        None => Cow::Owned(vec![p.fill.clone(); n]),
                    };
                }
                Cow::Owned((off..off + n).map(|i| p.byte(i as u64).0.clone()).collect())
            }
        }
    }

    /// Lets `write` fill bytes `off..off+n` and marks them written.
    #[inline(always)]
    pub fn write(&mut self, off: usize, n: usize, write: impl FnOnce(&mut [B])) {
        match &mut self.repr {
            Repr::Flat { bytes, init } => {
                write(&mut bytes[off..off + n]);
                init.set_init(off, n);
            }
            Repr::Paged(p) => {
                let (pg, k) = (
                    (off as u64) >> PAGE_BITS,
                    (off as u64 & (PAGE - 1)) as usize,
                );
                if k + n <= PAGE as usize {
                    let page = p.page_mut(pg);
                    write(&mut page.bytes[k..k + n]);
                    page.init.set_init(k, n);
                    return;
                }
                let mut tmp: Vec<B> = (off..off + n).map(|i| p.byte(i as u64).0.clone()).collect();
                write(&mut tmp);
                let mut done = 0;
                for (pg, k, len) in Paged::<B>::segments(off as u64, n as u64) {
                    let page = p.page_mut(pg);
                    page.bytes[k..k + len].clone_from_slice(&tmp[done..done + len]);
                    page.init.set_init(k, len);
                    done += len;
                }
            }
        }
    }

    /// Byte `i` becomes `b`, written.
    #[inline]
    pub fn set_byte(&mut self, i: usize, b: B) {
        self.write(i, 1, |out| out[0] = b);
    }

    /// `memset`: bytes `off..off+n` become `b`, written. Whole pages share one page, and a fill of the
    /// whole object drops its pages.
    pub fn fill(&mut self, off: usize, n: usize, b: B) {
        let Repr::Paged(p) = &mut self.repr else {
            self.write(off, n, |out| fill_bytes(out, b));
            return;
        };
        if off == 0 && n as u64 == p.size {
            p.pages.clear();
            p.fill = b;
            p.fill_init = true;
            return;
        }
        let mut uniform: Option<Rc<Page<B>>> = None;
        for (pg, k, len) in Paged::<B>::segments(off as u64, n as u64) {
            if len == PAGE as usize {
                let u = uniform.get_or_insert_with(|| Rc::new(Page::uniform(b.clone(), true)));
                p.pages.insert(pg, u.clone());
            } else {
                let page = p.page_mut(pg);
                page.bytes[k..k + len].fill(b.clone());
                page.init.set_init(k, len);
            }
        }
    }

    /// Copies `n` bytes and their initialisation state from `src` at `src_off` to `dst_off`. Whole pages
    /// at equal page offsets are shared, not copied.
    pub fn copy_from(&mut self, dst_off: usize, src: &Contents<B>, src_off: usize, n: usize) {
        if let (
            Repr::Flat { bytes, init },
            Repr::Flat {
                bytes: sb,
                init: si,
            },
        ) = (&mut self.repr, &src.repr)
        {
            bytes[dst_off..dst_off + n].clone_from_slice(&sb[src_off..src_off + n]);
            if si.is_init(src_off, n) {
                init.set_init(dst_off, n);
            } else {
                let len = bytes.len();
                for i in 0..n {
                    init.set_bit(dst_off + i, si.is_init(src_off + i, 1), len);
                }
            }
            return;
        }
        let mut done = 0usize;
        let mut uniform = None;
        while done < n {
            let (d, s) = ((dst_off + done) as u64, (src_off + done) as u64);
            let len = (n - done)
                .min((PAGE - (d & (PAGE - 1))) as usize)
                .min((PAGE - (s & (PAGE - 1))) as usize);
            if len == PAGE as usize
                && self.share_page(d >> PAGE_BITS, src, s >> PAGE_BITS, &mut uniform)
            {
                done += len;
                continue;
            }
            let part = src.read(s as usize, len);
            if src.is_init(s as usize, len) {
                self.write(d as usize, len, |out| out.clone_from_slice(&part));
            } else {
                for (i, b) in part.iter().enumerate() {
                    let init = src.is_init(s as usize + i, 1);
                    self.write(d as usize + i, 1, |out| out[0] = b.clone());
                    if !init {
                        self.mark_uninitialised(d as usize + i);
                    }
                }
            }
            done += len;
        }
    }

    /// Makes page `dst_page` of this (paged) object share page `src_page` of `src` (paged), or a page of
    /// `src`'s fill (`uniform`, made once per copy); false when either object is flat.
    fn share_page(
        &mut self,
        dst_page: u64,
        src: &Contents<B>,
        src_page: u64,
        uniform: &mut Option<Rc<Page<B>>>,
    ) -> bool {
        let (Repr::Paged(d), Repr::Paged(s)) = (&mut self.repr, &src.repr) else {
            return false;
        };
        let page = match s.pages.get(&src_page) {
            Some(p) => p.clone(),
            None => uniform
                .get_or_insert_with(|| Rc::new(Page::uniform(s.fill.clone(), s.fill_init)))
                .clone(),
        };
        d.pages.insert(dst_page, page);
        true
    }

    fn mark_uninitialised(&mut self, i: usize) {
        match &mut self.repr {
            Repr::Flat { bytes, init } => {
                let len = bytes.len();
                init.set_bit(i, false, len);
            }
            Repr::Paged(p) => {
                let k = (i as u64 & (PAGE - 1)) as usize;
                p.page_mut(i as u64 >> PAGE_BITS)
                    .init
                    .set_bit(k, false, PAGE as usize);
            }
        }
    }

    /// Moves `n` bytes within the object (overlap allowed, as `memmove`).
    pub fn move_within(&mut self, dst_off: usize, src_off: usize, n: usize) {
        if let Repr::Flat { .. } = self.repr {
            // Only the moved range is copied aside.
            let mut init = InitMap::new(n, true);
            for i in self.uninitialised(src_off, n) {
                init.set_bit(i - src_off, false, n);
            }
            let part = Contents {
                repr: Repr::Flat {
                    bytes: self.read(src_off, n).into_owned(),
                    init,
                },
            };
            self.copy_from(dst_off, &part, 0, n);
            return;
        }
        let copy = self.clone();
        self.copy_from(dst_off, &copy, src_off, n);
    }

    /// The same size, every byte `fill` and unwritten (a local's new lifetime).
    pub fn restarted(&self, fill: B) -> Self {
        Self::try_new(self.size(), fill, false).expect("a local's size was allocated before")
    }

    /// The stored bytes as runs (each starting at a multiple of [`PAGE`]; a page shared by several
    /// places of the object appears once), and the fill when some bytes are not stored (they all hold
    /// it): what the leak check scans for pointers.
    pub fn stored(&self) -> (Vec<&[B]>, Option<&B>) {
        match &self.repr {
            Repr::Flat { bytes, .. } => (vec![&bytes[..]], None),
            Repr::Paged(p) => {
                let mut seen = std::collections::HashSet::new();
                let runs: Vec<&[B]> = p
                    .pages
                    .iter()
                    .filter(|(_, page)| seen.insert(Rc::as_ptr(page)))
                    .map(|(&pg, page)| {
                        let off = pg << PAGE_BITS;
                        let len = (p.size - off).min(PAGE) as usize;
                        &page.bytes[..len]
                    })
                    .collect();
                let all = p.pages.len() as u64 == p.size.div_ceil(PAGE);
                (runs, (!all).then_some(&p.fill))
            }
        }
    }
}

impl<B: Clone + PartialEq> Contents<B> {
    /// The uniform range at `off`: its byte `b` and how many bytes from `off` (at most `max`) are
    /// initialised and equal to `b` (the same constant, or the same term: a `memset` with a symbolic
    /// value is one range too); `None` when the byte at `off` is outside the object or not written.
    /// What lets the string and memory models step over a `memset` region at once.
    pub fn uniform_run(&self, off: u64, max: u64) -> Option<(B, u64)> {
        if off >= self.size() || max == 0 || !self.is_init(off as usize, 1) {
            return None;
        }
        let b = self.read(off as usize, 1)[0].clone();
        let len = match &self.repr {
            Repr::Flat { bytes, init } => {
                let end = off.saturating_add(max).min(bytes.len() as u64) as usize;
                let same = |i: usize| init.is_init(i, 1) && bytes[i] == b;
                (off as usize..end).find(|&i| !same(i)).unwrap_or(end) as u64 - off
            }
            Repr::Paged(p) => p.uniform_run(off, &b, max),
        };
        Some((b, len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference model: a plain vector of (byte, written) pairs.
    fn model(c: &Contents<u8>) -> Vec<(u8, bool)> {
        (0..c.size() as usize)
            .map(|i| (c.read(i, 1)[0], c.is_init(i, 1)))
            .collect()
    }

    /// Each mask has exactly bits `b..b+n`.
    #[test]
    fn word_masks_have_exactly_their_bits() {
        for b in 0..64 {
            for n in 0..=64 - b {
                let bits = (b..b + n).fold(0u64, |m, i| m | 1 << i);
                assert_eq!(word_mask(b, n), bits, "bits {b}..{}", b + n);
            }
        }
    }

    /// The fill of fixed-size stores leaves every byte `b`, whatever the length (the short cases' stores
    /// overlap), for bytes that are copied and for bytes that are cloned.
    #[test]
    fn small_fills_reach_every_byte() {
        for n in 0..=40usize {
            let mut bytes: Vec<u8> = (0..n as u8).map(|i| i + 1).collect();
            fill_bytes(&mut bytes, 0);
            assert!(bytes.iter().all(|&x| x == 0), "{n} bytes: {bytes:?}");
            let mut cloned: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            fill_bytes(&mut cloned, "b".to_string());
            assert!(cloned.iter().all(|x| x == "b"), "{n} strings: {cloned:?}");
        }
    }

    /// Ranges set and tested a word at a time agree with bits set and tested one by one.
    #[test]
    fn init_ranges_agree_with_single_bits() {
        let len = 300;
        for off in [0, 1, 5, 63, 64, 65, 100, 127, 128] {
            for n in [1, 2, 8, 59, 63, 64, 65, 100, 128, 129, 171] {
                if off + n > len {
                    continue;
                }
                let (mut words, mut bits) = (InitMap::new(len, false), InitMap::new(len, false));
                words.set_init(off, n);
                (off..off + n).for_each(|i| bits.set_init(i, 1));
                assert_eq!(words.words, bits.words, "{off} {n}");
                for (o, k) in [(off, n), (off.saturating_sub(1), n + 1), (off, n + 1)] {
                    let by_bits = (o..o + k).all(|i| bits.is_init(i, 1));
                    if o + k <= len {
                        assert_eq!(words.is_init(o, k), by_bits, "{off} {n}: {o} {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn large_objects_cost_nothing_until_written() {
        let mut c = Contents::try_new(4 << 30, 0u8, false).unwrap();
        assert_eq!(c.size(), 4 << 30);
        assert!(!c.is_init(1 << 32, 4));
        c.write((3 << 30) + PAGE as usize - 2, 4, |o| {
            o.copy_from_slice(&[1, 2, 3, 4])
        });
        assert_eq!(&*c.read((3 << 30) + PAGE as usize - 2, 4), &[1, 2, 3, 4]);
        assert!(c.is_init((3 << 30) + PAGE as usize - 2, 4));
        assert!(!c.is_init((3 << 30) + PAGE as usize - 3, 2));
        let (runs, fill) = c.stored();
        assert_eq!((runs.len(), fill), (2, Some(&0)));
        assert_eq!(c.count_uninitialised(0, 1 << 30), 1 << 30);
    }

    #[test]
    fn whole_object_fill_is_one_range() {
        let mut c = Contents::try_new(1 << 40, 0u8, false).unwrap();
        c.fill(0, 1 << 40, 7);
        assert!(c.is_init(0, 1 << 20));
        assert_eq!(c.read((1 << 40) - 3, 3).as_ref(), &[7, 7, 7]);
        assert_eq!(c.stored().0.len(), 0);
        // A fill of all but the last byte: every full page shares one page, scanned once.
        let mut d = Contents::try_new(1 << 30, 0u8, false).unwrap();
        d.fill(0, (1 << 30) - 1, 7);
        assert_eq!(d.stored().0.len(), 2);
        assert_eq!(d.stored().1, None);
        assert_eq!(d.uninitialised((1 << 30) - 2, 2), vec![(1 << 30) - 1]);
    }

    #[test]
    fn uniform_runs_agree_with_the_bytes() {
        let size = FLAT_MAX + 40 * PAGE + 7;
        let mut c = Contents::try_new(size, 0u8, false).unwrap();
        c.fill(3, (30 * PAGE) as usize, b'a');
        c.set_byte((12 * PAGE + 5) as usize, b'b');
        c.write((31 * PAGE) as usize, 2, |o| o.copy_from_slice(b"aa"));
        let flat = Contents::from_bytes(b"xxxxyz".to_vec());
        // The reference: the run of equal initialised bytes, read one by one.
        let by_bytes = |c: &Contents<u8>, off: u64, max: u64| {
            let first = c.read(off as usize, 1)[0];
            let end = (off + max).min(c.size());
            (off..end)
                .take_while(|&i| c.is_init(i as usize, 1) && c.read(i as usize, 1)[0] == first)
                .count() as u64
        };
        for off in [
            0,
            2,
            3,
            4,
            PAGE,
            12 * PAGE + 4,
            12 * PAGE + 6,
            30 * PAGE + 2,
            31 * PAGE,
        ] {
            for max in [1, 9, PAGE + 3, size] {
                let run = c.uniform_run(off, max);
                if c.is_init(off as usize, 1) {
                    assert_eq!(
                        run.map(|r| r.1),
                        Some(by_bytes(&c, off, max)),
                        "{off} {max}"
                    );
                } else {
                    assert_eq!(run, None, "{off}");
                }
            }
        }
        assert_eq!(flat.uniform_run(0, 10), Some((b'x', 4)));
        assert_eq!(flat.uniform_run(5, 10), Some((b'z', 1)));
        // A whole-object fill is one range however large the object.
        let mut big = Contents::try_new(1 << 40, 0u8, false).unwrap();
        big.fill(0, 1 << 40, 7);
        assert_eq!(big.uniform_run(5, u64::MAX), Some((7, (1 << 40) - 5)));
    }

    /// Random writes, fills, copies and moves on a paged and a flat object of the same size agree with
    /// a byte-per-byte model (an independent, obviously correct store).
    #[test]
    fn paged_and_flat_storage_agree_with_a_plain_model() {
        let mut rnd = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        let size = FLAT_MAX + 3 * PAGE + 5;
        let mut paged = Contents::try_new(size, 9u8, false).unwrap();
        let mut plain = vec![(9u8, false); size as usize];
        let mut other = Contents::try_new(size, 1u8, false).unwrap();
        let mut other_plain = vec![(1u8, false); size as usize];
        for step in 0..400 {
            let off = rnd(size) as usize;
            let n = (rnd(3 * PAGE) as usize).min(size as usize - off);
            match step % 5 {
                0 => {
                    let v = rnd(256) as u8;
                    paged.write(off, n, |o| o.iter_mut().for_each(|b| *b = v));
                    plain[off..off + n].fill((v, true));
                }
                1 => {
                    let v = rnd(256) as u8;
                    paged.fill(off, n, v);
                    plain[off..off + n].fill((v, true));
                }
                2 => {
                    let v = rnd(256) as u8;
                    other.write(off, n, |o| o.iter_mut().for_each(|b| *b = v));
                    other_plain[off..off + n].fill((v, true));
                }
                3 => {
                    let dst = rnd(size - n as u64) as usize;
                    paged.copy_from(dst, &other, off, n);
                    let part = other_plain[off..off + n].to_vec();
                    plain[dst..dst + n].copy_from_slice(&part);
                }
                _ => {
                    let dst = rnd(size - n as u64) as usize;
                    paged.move_within(dst, off, n);
                    let part = plain[off..off + n].to_vec();
                    plain[dst..dst + n].copy_from_slice(&part);
                }
            }
        }
        assert_eq!(model(&paged), plain);
        assert_eq!(model(&other), other_plain);
        // Page-aligned copies share pages; the copy then changes independently.
        let mut shared = Contents::try_new(size, 0u8, false).unwrap();
        shared.copy_from(0, &paged, 0, size as usize);
        assert_eq!(model(&shared), plain);
        shared.set_byte(5, 200);
        assert_eq!(model(&paged), plain);
        // Flat to flat keeps the uninitialised marks too.
        let mut f = Contents::from_bytes(vec![1u8; 8]);
        let g = Contents::try_new(8, 0u8, false).unwrap();
        f.copy_from(2, &g, 0, 3);
        assert_eq!(f.uninitialised(0, 8), vec![2, 3, 4]);
    }
}
