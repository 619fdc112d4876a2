//! Sorts, uninterpreted sort names and uninterpreted function symbols.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// The sort (type) of a term.
///
/// `Sort` is `Copy`: uninterpreted sorts are interned names ([`USort`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Bit-vectors of the given width, `1 ..= MAX_BV_WIDTH`.
    BitVec(u32),
    /// Mathematical integers (values are bounded by `i128` in evaluation and folding).
    Int,
    /// Arrays from `BitVec(index)` to `BitVec(element)`: the memory sort.
    Array {
        /// Width of the index bit-vectors.
        index: u32,
        /// Width of the element bit-vectors.
        element: u32,
    },
    /// Arrays between any two sorts (SMT-LIB `(Array I E)`, with read-over-write and
    /// extensionality), such as the IDF verifier's `Int -> Int` array contents. [`Sort::Array`]
    /// stays the bit-vector memory sort that constant evaluation keeps in machine words.
    Map(MapSort),
    /// An uninterpreted sort such as the IDF verifier's `ref` or `snapshot`.
    Uninterpreted(USort),
}

/// The widest bit-vector the term language supports (values are held in a `u128`).
pub const MAX_BV_WIDTH: u32 = 128;

impl Sort {
    /// The bit-vector sort of width `w`.
    ///
    /// # Panics
    /// If `w` is 0 or above [`MAX_BV_WIDTH`].
    pub fn bv(w: u32) -> Sort {
        assert!(
            (1..=MAX_BV_WIDTH).contains(&w),
            "bit-vector width {w} outside 1..={MAX_BV_WIDTH}"
        );
        Sort::BitVec(w)
    }

    /// The bit-vector sort of width `w`, or `None` when `w` is 0 or above [`MAX_BV_WIDTH`]
    /// (for widths that come from input, such as LLVM's `i256`).
    pub fn try_bv(w: u32) -> Option<Sort> {
        (1..=MAX_BV_WIDTH).contains(&w).then_some(Sort::BitVec(w))
    }

    /// The array sort `BitVec(index) -> BitVec(element)`.
    ///
    /// # Panics
    /// If either width is 0 or above [`MAX_BV_WIDTH`].
    pub fn array(index: u32, element: u32) -> Sort {
        Sort::bv(index);
        Sort::bv(element);
        Sort::Array { index, element }
    }

    /// The array sort `index -> element` over any two sorts ([`Sort::Map`]).
    pub fn map(index: Sort, element: Sort) -> Sort {
        Sort::Map(MapSort::new(index, element))
    }

    /// The uninterpreted sort called `name` (the same name gives the same sort).
    pub fn uninterpreted(name: &str) -> Sort {
        Sort::Uninterpreted(USort::new(name))
    }

    /// The width of a bit-vector sort.
    pub fn bv_width(self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(w),
            _ => None,
        }
    }

    /// Whether this is `Bool`.
    pub fn is_bool(self) -> bool {
        self == Sort::Bool
    }
}

impl fmt::Display for Sort {
    /// SMT-LIB2 syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => write!(f, "Bool"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Int => write!(f, "Int"),
            Sort::Array { index, element } => {
                write!(f, "(Array (_ BitVec {index}) (_ BitVec {element}))")
            }
            Sort::Map(m) => write!(f, "(Array {} {})", m.index(), m.element()),
            Sort::Uninterpreted(u) => write!(f, "{}", crate::smtlib::symbol(u.name())),
        }
    }
}

type MapDecl = &'static (Sort, Sort);

/// The index and element sorts of a [`Sort::Map`], interned so that `Sort` stays `Copy`
/// (there are few such sorts in a process).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct MapSort(MapDecl);

impl MapSort {
    /// The array sort `index -> element`.
    pub fn new(index: Sort, element: Sort) -> MapSort {
        static MAPS: OnceLock<Mutex<HashMap<(Sort, Sort), MapDecl>>> = OnceLock::new();
        let mut maps = MAPS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        MapSort(
            maps.entry((index, element))
                .or_insert_with(|| Box::leak(Box::new((index, element)))),
        )
    }

    /// The index sort.
    pub fn index(self) -> Sort {
        self.0 .0
    }

    /// The element sort.
    pub fn element(self) -> Sort {
        self.0 .1
    }
}

/// An interned uninterpreted sort name. Names live for the whole process (there are few).
#[derive(Clone, Copy)]
pub struct USort(&'static str);

impl USort {
    /// The uninterpreted sort called `name`.
    pub fn new(name: &str) -> USort {
        USort(intern_name(name))
    }

    /// The sort's name.
    pub fn name(self) -> &'static str {
        self.0
    }
}

// Names are interned, so pointer identity is name identity.
impl PartialEq for USort {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for USort {}
impl std::hash::Hash for USort {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}
impl PartialOrd for USort {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for USort {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(other.0)
    }
}
impl fmt::Debug for USort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "USort({})", self.0)
    }
}

fn intern_name(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(s) = names.get(name) {
        return s;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(name.to_owned(), leaked);
    leaked
}

/// The declaration of an uninterpreted function: name, argument sorts and result sort.
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct FuncDecl {
    /// The function's name.
    pub name: String,
    /// The argument sorts.
    pub domain: Vec<Sort>,
    /// The result sort.
    pub range: Sort,
}

/// An interned uninterpreted function symbol (`Copy`, compared by identity).
///
/// The same name with the same signature gives the same `Func`. The same name with two
/// signatures gives two distinct functions (Z3 allows this overloading; SMT-LIB printing
/// would then be ambiguous, so give functions distinct names).
#[derive(Clone, Copy)]
pub struct Func(&'static FuncDecl);

impl Func {
    /// Declares (or finds) the function `name : domain -> range`.
    pub fn new(name: &str, domain: &[Sort], range: Sort) -> Func {
        static FUNCS: OnceLock<Mutex<HashMap<FuncDeclKey, &'static FuncDecl>>> = OnceLock::new();
        let key = FuncDeclKey(name.to_owned(), domain.to_vec(), range);
        let mut funcs = FUNCS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(d) = funcs.get(&key) {
            return Func(d);
        }
        let decl: &'static FuncDecl = Box::leak(Box::new(FuncDecl {
            name: key.0.clone(),
            domain: key.1.clone(),
            range,
        }));
        funcs.insert(key, decl);
        Func(decl)
    }

    /// The declaration.
    pub fn decl(self) -> &'static FuncDecl {
        self.0
    }

    /// The function's name.
    pub fn name(self) -> &'static str {
        &self.0.name
    }

    /// The argument sorts.
    pub fn domain(self) -> &'static [Sort] {
        &self.0.domain
    }

    /// The result sort.
    pub fn range(self) -> Sort {
        self.0.range
    }
}

#[derive(PartialEq, Eq, Hash)]
struct FuncDeclKey(String, Vec<Sort>, Sort);

impl PartialEq for Func {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Func {}
impl std::hash::Hash for Func {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.0 as *const FuncDecl).hash(state)
    }
}
impl PartialOrd for Func {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Func {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.0.name, &self.0.domain, self.0.range).cmp(&(
            &other.0.name,
            &other.0.domain,
            other.0.range,
        ))
    }
}
impl fmt::Debug for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Func({})", self.0.name)
    }
}
