//! Concrete values of every sort.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::sort::{MapSort, Sort, USort};
use crate::term::Term;

/// A concrete value.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// A bit-vector of `width` bits.
    Bv {
        /// The bits (zero-extended).
        value: u128,
        /// The width.
        width: u32,
    },
    /// An integer.
    Int(i128),
    /// An array.
    Array(Arc<ArrayValue>),
    /// An array of a [`Sort::Map`].
    Map(Arc<MapValue>),
    /// The `index`-th element of an uninterpreted sort's universe.
    Uninterpreted {
        /// The sort.
        sort: USort,
        /// Which element (Z3 prints it as `sort!val!index`).
        index: u64,
    },
}

/// A finite array: a default element and the indices that differ from it.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArrayValue {
    /// Index width.
    pub index_width: u32,
    /// Element width.
    pub element_width: u32,
    /// The element at every index not in `entries`.
    pub default: u128,
    /// Indices whose element differs from `default` (never holds a default element, so
    /// equal arrays are equal values).
    pub entries: BTreeMap<u128, u128>,
}

impl ArrayValue {
    /// The element at `index`.
    pub fn get(&self, index: u128) -> u128 {
        self.entries.get(&index).copied().unwrap_or(self.default)
    }

    /// The array with `index` mapped to `element`.
    pub fn with(&self, index: u128, element: u128) -> ArrayValue {
        let mut a = self.clone();
        a.set(index, element);
        a
    }

    /// Maps `index` to `element` in place.
    pub fn set(&mut self, index: u128, element: u128) {
        if element == self.default {
            self.entries.remove(&index);
        } else {
            self.entries.insert(index, element);
        }
    }
}

/// A finite array of a [`Sort::Map`]: a default element and the indices that differ from
/// it. Over an infinite index sort (`Int`, an uninterpreted sort) equal arrays are equal
/// values; over a finite one an array that overrides every index has a second spelling.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct MapValue {
    /// The array's sort.
    pub sort: MapSort,
    /// The element at every index not in `entries`.
    pub default: Value,
    /// Indices whose element differs from `default` (never holds a default element).
    pub entries: BTreeMap<Value, Value>,
}

impl MapValue {
    /// The array of sort `sort` holding `default` everywhere.
    pub fn constant(sort: MapSort, default: Value) -> MapValue {
        MapValue {
            sort,
            default,
            entries: BTreeMap::new(),
        }
    }

    /// The element at `index`.
    pub fn get(&self, index: &Value) -> Value {
        self.entries
            .get(index)
            .cloned()
            .unwrap_or_else(|| self.default.clone())
    }

    /// The array with `index` mapped to `element`.
    pub fn with(&self, index: Value, element: Value) -> MapValue {
        let mut a = self.clone();
        a.set(index, element);
        a
    }

    /// Maps `index` to `element` in place.
    pub fn set(&mut self, index: Value, element: Value) {
        if element == self.default {
            self.entries.remove(&index);
        } else {
            self.entries.insert(index, element);
        }
    }
}

impl Value {
    /// The value a model gives to a variable it does not mention (as Z3's model completion):
    /// false, zero, the all-zero array, the first element of an uninterpreted universe.
    pub fn default_of(sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::BitVec(width) => Value::Bv { value: 0, width },
            Sort::Int => Value::Int(0),
            Sort::Array { index, element } => Value::Array(Arc::new(ArrayValue {
                index_width: index,
                element_width: element,
                default: 0,
                entries: BTreeMap::new(),
            })),
            Sort::Map(m) => Value::Map(Arc::new(MapValue::constant(
                m,
                Value::default_of(m.element()),
            ))),
            Sort::Uninterpreted(sort) => Value::Uninterpreted { sort, index: 0 },
        }
    }

    /// The sort of the value.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Bv { width, .. } => Sort::BitVec(*width),
            Value::Int(_) => Sort::Int,
            Value::Array(a) => Sort::Array {
                index: a.index_width,
                element: a.element_width,
            },
            Value::Map(a) => Sort::Map(a.sort),
            Value::Uninterpreted { sort, .. } => Sort::Uninterpreted(*sort),
        }
    }

    /// The Boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The bits of a bit-vector, if it is one.
    pub fn as_bv(&self) -> Option<u128> {
        match self {
            Value::Bv { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The integer, if it is one.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as a constant term (arrays become `store`s over a constant array).
    /// Elements of uninterpreted sorts have no term and give `None`.
    pub fn to_term(&self) -> Option<Term> {
        Some(match self {
            Value::Bool(b) => Term::bool(*b),
            Value::Bv { value, width } => Term::bv(*value, *width),
            Value::Int(i) => Term::int(*i),
            Value::Array(a) => {
                let sort = Sort::array(a.index_width, a.element_width);
                let mut t = Term::const_array(sort, &Term::bv(a.default, a.element_width));
                for (i, e) in &a.entries {
                    t = t.store(&Term::bv(*i, a.index_width), &Term::bv(*e, a.element_width));
                }
                t
            }
            Value::Map(a) => {
                let mut t = Term::const_array(Sort::Map(a.sort), &a.default.to_term()?);
                for (i, e) in &a.entries {
                    t = t.store(&i.to_term()?, &e.to_term()?);
                }
                t
            }
            Value::Uninterpreted { .. } => return None,
        })
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Bv { value, width } if width % 4 == 0 => {
                write!(f, "#x{:0w$x}", value, w = (*width / 4) as usize)
            }
            Value::Bv { value, width } => {
                write!(f, "#b{:0w$b}", value, w = *width as usize)
            }
            Value::Int(i) if *i < 0 => write!(f, "(- {})", i.unsigned_abs()),
            Value::Int(i) => write!(f, "{i}"),
            Value::Array(a) => {
                for _ in &a.entries {
                    write!(f, "(store ")?;
                }
                write!(
                    f,
                    "((as const {}) {})",
                    Sort::array(a.index_width, a.element_width),
                    Value::Bv {
                        value: a.default,
                        width: a.element_width
                    }
                )?;
                for (i, e) in &a.entries {
                    let i = Value::Bv {
                        value: *i,
                        width: a.index_width,
                    };
                    let e = Value::Bv {
                        value: *e,
                        width: a.element_width,
                    };
                    write!(f, " {i} {e})")?;
                }
                Ok(())
            }
            Value::Map(a) => {
                for _ in &a.entries {
                    write!(f, "(store ")?;
                }
                write!(f, "((as const {}) {})", Sort::Map(a.sort), a.default)?;
                for (i, e) in &a.entries {
                    write!(f, " {i} {e})")?;
                }
                Ok(())
            }
            Value::Uninterpreted { sort, index } => write!(f, "{}!val!{index}", sort.name()),
        }
    }
}
