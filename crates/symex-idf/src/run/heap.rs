//! The concrete state: values, the heap of objects and arrays, and permissions (the locations an
//! activation may access). The paper keeps permissions only in its symbolic heap; its soundness
//! argument (§5) relates them to a concrete heap in which each location is accessible to exactly
//! one activation, which is what a permission set here is: permissions are created only by
//! `new` and only ever move (caller → callee at a call, back by the postcondition).
use crate::ir::{FieldId, Sort};
use std::fmt;
use std::sync::Arc;

/// A run-time value; integers are mathematical, so arithmetic beyond `i128` stops the run as a
/// limit of the executor rather than wrapping.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Int(i128),
    Bool(bool),
    Null,
    /// An object or array, by allocation number (from 1).
    Ref(u64),
}

impl Value {
    pub fn default_of(sort: Sort) -> Value {
        match sort {
            Sort::Int => Value::Int(0),
            Sort::Bool => Value::Bool(false),
            Sort::Ref => Value::Null,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Null => write!(f, "null"),
            Value::Ref(o) => write!(f, "#{o}"),
        }
    }
}

/// A location a permission is for: one field of one object, or all elements of one array
/// (`acc(a.elems)` is the only permission the language has for elements).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    /// The object and the field's `Class.name`.
    Field(u64, Arc<str>),
    Elems(u64),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Field(o, field) => {
                let name = field.rsplit('.').next().unwrap_or(field);
                write!(f, "#{o}.{name}")
            }
            Loc::Elems(a) => write!(f, "#{a}.elems"),
        }
    }
}

/// The permissions an activation holds (or a footprint: the permissions an assertion covers).
pub type Perms = im::OrdSet<Loc>;

pub fn field_key(f: &FieldId) -> Arc<str> {
    f.key.clone()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    pub elem: Sort,
    pub items: im::Vector<Value>,
}

/// Objects' fields and arrays' elements. Persistent maps, so that the pre-state a method's
/// `old` and `untouched` refer to is a cheap copy.
#[derive(Clone, Debug, Default)]
pub struct Heap {
    fields: im::HashMap<(u64, Arc<str>), Value>,
    arrays: im::HashMap<u64, Array>,
    next: u64,
}

impl Heap {
    /// A new object of a class with `fields`, every field `null`/`0`/`false`; returns its
    /// reference and the permissions to its fields.
    pub fn new_object(&mut self, fields: &[FieldId]) -> (Value, Perms) {
        self.next += 1;
        let o = self.next;
        let mut perms = Perms::new();
        for f in fields {
            let key = field_key(f);
            self.fields
                .insert((o, key.clone()), Value::default_of(f.sort));
            perms.insert(Loc::Field(o, key));
        }
        (Value::Ref(o), perms)
    }

    pub fn new_array(&mut self, elem: Sort, len: usize) -> (Value, Perms) {
        self.next += 1;
        let a = self.next;
        let items = std::iter::repeat_n(Value::default_of(elem), len).collect();
        self.arrays.insert(a, Array { elem, items });
        (Value::Ref(a), Perms::unit(Loc::Elems(a)))
    }

    pub fn field(&self, o: u64, key: &Arc<str>) -> Option<&Value> {
        self.fields.get(&(o, key.clone()))
    }

    pub fn set_field(&mut self, o: u64, key: Arc<str>, v: Value) {
        self.fields.insert((o, key), v);
    }

    pub fn array(&self, a: u64) -> Option<&Array> {
        self.arrays.get(&a)
    }

    pub fn set_elem(&mut self, a: u64, i: usize, v: Value) {
        if let Some(arr) = self.arrays.get_mut(&a) {
            arr.items.set(i, v);
        }
    }

    /// Whether `loc` holds the same value here and in `other` (`untouched`).
    pub fn same_at(&self, other: &Heap, loc: &Loc) -> bool {
        match loc {
            Loc::Field(o, k) => self.field(*o, k) == other.field(*o, k),
            Loc::Elems(a) => self.array(*a) == other.array(*a),
        }
    }

    /// The value at `loc`, for messages.
    pub fn show(&self, loc: &Loc) -> String {
        match loc {
            Loc::Field(o, k) => self
                .field(*o, k)
                .map_or_else(|| "unallocated".into(), |v| v.to_string()),
            Loc::Elems(a) => self.array(*a).map_or_else(
                || "unallocated".into(),
                |arr| {
                    let items: Vec<String> = arr.items.iter().map(|v| v.to_string()).collect();
                    format!("[{}]", items.join(", "))
                },
            ),
        }
    }
}
