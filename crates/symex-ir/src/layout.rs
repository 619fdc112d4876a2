//! Type layout from the module's data layout, following LLVM 14's `DataLayout` rules:
//! integers without an explicit entry take the alignment of the next larger listed width (or the
//! largest listed one — so `i128` is 8-aligned on x86-64 in LLVM 14), vectors without an entry are
//! naturally aligned, struct fields are placed at their alignment unless packed. Pointers (address space 0)
//! are 64-bit (x86-64) or 32-bit (i386, `-m32`): their size and alignment come from the `p` entry.

use crate::error::{FrontendError, Result};
use crate::ir::{TypeId, TypeInfo, TypeKind};
use llvm_ir::module::DataLayout;
use llvm_ir::types::{NamedStructDef, Type, TypeRef, Types};
use rustc_hash::FxHashMap;

/// Interns types and computes their layout once.
pub(crate) struct TypeTable {
    pub infos: Vec<TypeInfo>,
    by_kind: FxHashMap<TypeKind, TypeId>,
    by_ref: FxHashMap<TypeRef, TypeId>,
    int_aligns: Vec<(u32, u64)>,
    vec_aligns: Vec<(u32, u64)>,
    agg_align: u64,
    /// Size and ABI alignment of a pointer, in bytes.
    ptr: (u64, u64),
}

fn round_up(n: u64, align: u64) -> u64 {
    n.div_ceil(align.max(1)) * align.max(1)
}

impl TypeTable {
    /// A table for the given data layout, pre-filled with the types named by `TypeId`'s constants.
    pub fn new(dl: &DataLayout) -> Result<TypeTable> {
        Self::for_layout(&dl.layout_str)
    }

    /// [`Self::new`] from the data layout string itself.
    fn for_layout(layout: &str) -> Result<TypeTable> {
        let DataLayoutInfo {
            int_aligns,
            vec_aligns,
            agg_align,
            ptr,
        } = parse_layout(layout)?;
        let mut t = TypeTable {
            infos: Vec::new(),
            by_kind: FxHashMap::default(),
            by_ref: FxHashMap::default(),
            int_aligns,
            vec_aligns,
            agg_align,
            ptr,
        };
        for kind in [
            TypeKind::Void,
            TypeKind::Int(1),
            TypeKind::Int(8),
            TypeKind::Int(16),
            TypeKind::Int(32),
            TypeKind::Int(64),
            TypeKind::Int(128),
            TypeKind::Ptr,
        ] {
            t.intern(kind);
        }
        Ok(t)
    }

    /// Bytes of a pointer (8 on x86-64, 4 on i386).
    pub fn pointer_bytes(&self) -> u64 {
        self.ptr.0
    }

    pub fn info(&self, id: TypeId) -> &TypeInfo {
        &self.infos[id.0 as usize]
    }

    fn int_align(&self, bits: u32) -> u64 {
        if let Some(&(_, a)) = self.int_aligns.iter().find(|(w, _)| *w >= bits) {
            return a;
        }
        self.int_aligns.last().map(|&(_, a)| a).unwrap_or(1)
    }

    fn vec_align(&self, bits: u32, store: u64) -> u64 {
        match self.vec_aligns.iter().find(|(w, _)| *w == bits) {
            Some(&(_, a)) => a,
            None => store.next_power_of_two(),
        }
    }

    /// Interns a type whose parts are already interned, computing its layout.
    pub fn intern(&mut self, kind: TypeKind) -> TypeId {
        if let Some(&id) = self.by_kind.get(&kind) {
            return id;
        }
        let (store_size, align) = match &kind {
            TypeKind::Void => (0, 1),
            TypeKind::Int(bits) => (u64::from(*bits).div_ceil(8), self.int_align(*bits)),
            TypeKind::Ptr => self.ptr,
            TypeKind::Array { elem, len } => {
                let e = self.info(*elem);
                (e.alloc_size * len, e.align)
            }
            TypeKind::Vector { elem, lanes } => {
                let bits = self.elem_bits(*elem) * lanes;
                let store = u64::from(bits).div_ceil(8);
                (store, self.vec_align(bits, store))
            }
            TypeKind::Struct {
                fields,
                offsets,
                packed,
            } => {
                let end = fields
                    .iter()
                    .zip(offsets)
                    .map(|(f, off)| off + self.info(*f).alloc_size)
                    .max()
                    .unwrap_or(0);
                let align = if *packed {
                    1
                } else {
                    fields
                        .iter()
                        .map(|f| self.info(*f).align)
                        .fold(self.agg_align, u64::max)
                };
                (round_up(end, align), align)
            }
        };
        let id = TypeId(self.infos.len() as u32);
        self.infos.push(TypeInfo {
            alloc_size: round_up(store_size, align),
            store_size,
            align,
            kind: kind.clone(),
        });
        self.by_kind.insert(kind, id);
        id
    }

    fn elem_bits(&self, elem: TypeId) -> u32 {
        match self.info(elem).kind {
            TypeKind::Int(bits) => bits,
            _ => 64,
        }
    }

    /// Interns a struct with fields laid out by the usual rules.
    pub fn struct_of(&mut self, fields: Vec<TypeId>, packed: bool) -> TypeId {
        let mut offsets = Vec::with_capacity(fields.len());
        let mut off = 0;
        for f in &fields {
            let info = self.info(*f);
            if !packed {
                off = round_up(off, info.align);
            }
            offsets.push(off);
            off += info.alloc_size;
        }
        self.intern(TypeKind::Struct {
            fields,
            offsets,
            packed,
        })
    }

    /// The IR type of an LLVM type; errors name the unsupported type.
    pub fn lower(&mut self, ty: &TypeRef, types: &Types) -> Result<TypeId> {
        if let Some(&id) = self.by_ref.get(ty) {
            return Ok(id);
        }
        let id = match ty.as_ref() {
            Type::VoidType => TypeId::VOID,
            Type::IntegerType { bits } if (1..=128).contains(bits) => {
                self.intern(TypeKind::Int(*bits))
            }
            Type::IntegerType { bits } => {
                return Err(FrontendError::unsupported(format!(
                    "integer type i{bits} (at most 128 bits are supported)"
                )))
            }
            Type::PointerType { .. } => TypeId::PTR,
            // `llvm-ir` types a `blockaddress` constant (an `i8*` in LLVM) as `label`; no other value
            // has that type.
            Type::LabelType => TypeId::PTR,
            Type::FPType(_) => {
                return Err(FrontendError::unsupported(format!(
                    "floating-point type `{ty}`"
                )))
            }
            Type::ArrayType {
                element_type,
                num_elements,
            } => {
                let elem = self.lower(element_type, types)?;
                self.intern(TypeKind::Array {
                    elem,
                    len: *num_elements as u64,
                })
            }
            Type::VectorType {
                element_type,
                num_elements,
                scalable,
            } => {
                if *scalable {
                    return Err(FrontendError::unsupported(format!(
                        "scalable vector type `{ty}`"
                    )));
                }
                let elem = self.lower(element_type, types)?;
                if !matches!(self.info(elem).kind, TypeKind::Int(_) | TypeKind::Ptr) {
                    return Err(FrontendError::unsupported(format!("vector type `{ty}`")));
                }
                self.intern(TypeKind::Vector {
                    elem,
                    lanes: *num_elements as u32,
                })
            }
            Type::StructType {
                element_types,
                is_packed,
            } => {
                let fields = element_types
                    .iter()
                    .map(|t| self.lower(t, types))
                    .collect::<Result<Vec<_>>>()?;
                self.struct_of(fields, *is_packed)
            }
            Type::NamedStructType { name } => match types.named_struct_def(name) {
                Some(NamedStructDef::Defined(def)) => self.lower(def, types)?,
                _ => {
                    return Err(FrontendError::unsupported(format!(
                        "use of the opaque (incomplete) struct type `%{name}` as a value"
                    )))
                }
            },
            other => return Err(FrontendError::unsupported(format!("LLVM type `{other}`"))),
        };
        self.by_ref.insert(ty.clone(), id);
        Ok(id)
    }
}

/// What lowering needs from a data layout string.
pub(crate) struct DataLayoutInfo {
    int_aligns: Vec<(u32, u64)>,
    vec_aligns: Vec<(u32, u64)>,
    agg_align: u64,
    /// Size and ABI alignment of an address-space-0 pointer, in bytes.
    ptr: (u64, u64),
}

/// Reads the integer, vector and aggregate ABI alignments and the pointer size from a data layout
/// string, starting from LLVM 14's defaults (`i64:32:64`: a 64-bit integer is 4-aligned unless the
/// layout says otherwise, as on i386; `p:64:64`). Little endian and 32- or 64-bit pointers are required.
pub(crate) fn parse_layout(s: &str) -> Result<DataLayoutInfo> {
    let mut ints: Vec<(u32, u64)> = vec![(1, 1), (8, 1), (16, 2), (32, 4), (64, 4)];
    let mut ptr = (8u64, 8u64);
    let mut vecs: Vec<(u32, u64)> = vec![(64, 8), (128, 16)];
    let mut agg = 1u64;
    let bad =
        |spec: &str| FrontendError::unsupported(format!("data layout entry `{spec}` in `{s}`"));
    for spec in s.split('-').filter(|p| !p.is_empty()) {
        let nums =
            |rest: &str| -> Vec<u64> { rest.split(':').map(|n| n.parse().unwrap_or(0)).collect() };
        let set = |table: &mut Vec<(u32, u64)>, rest: &str| {
            let v = nums(rest);
            let (bits, abi) = (v[0] as u32, v.get(1).copied().unwrap_or(0) / 8);
            table.retain(|(w, _)| *w != bits);
            table.push((bits, abi.max(1)));
            table.sort();
        };
        match spec.as_bytes()[0] {
            b'E' => return Err(bad(spec)),
            b'i' => set(&mut ints, &spec[1..]),
            b'v' => set(&mut vecs, &spec[1..]),
            b'a' => agg = (nums(&spec[1..]).get(1).copied().unwrap_or(0) / 8).max(1),
            b'p' => {
                let (space, rest) = spec[1..].split_once(':').unwrap_or(("", &spec[1..]));
                if space.is_empty() || space == "0" {
                    let v = nums(rest);
                    let size = v.first().copied().unwrap_or(64);
                    if size != 64 && size != 32 {
                        return Err(bad(spec));
                    }
                    let abi = v.get(1).copied().unwrap_or(size);
                    ptr = (size / 8, (abi / 8).max(1));
                }
            }
            _ => {}
        }
    }
    Ok(DataLayoutInfo {
        int_aligns: ints,
        vec_aligns: vecs,
        agg_align: agg,
        ptr,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const X86_64: &str = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128";

    fn table() -> TypeTable {
        TypeTable::for_layout(X86_64).unwrap()
    }

    fn sizes(t: &TypeTable, id: TypeId) -> (u64, u64, u64) {
        let i = t.info(id);
        (i.store_size, i.alloc_size, i.align)
    }

    #[test]
    fn integers_follow_the_next_larger_listed_width() {
        let mut t = table();
        let cases = [
            (1, (1, 1, 1)),
            (8, (1, 1, 1)),
            (17, (3, 4, 4)),
            (24, (3, 4, 4)),
            (33, (5, 8, 8)),
            (64, (8, 8, 8)),
        ];
        for (bits, want) in cases {
            let id = t.intern(TypeKind::Int(bits));
            assert_eq!(sizes(&t, id), want, "i{bits}");
        }
        // LLVM 14 has no i128 entry for x86-64: the largest listed one (i64) applies.
        let i128 = t.intern(TypeKind::Int(128));
        assert_eq!(sizes(&t, i128), (16, 16, 8));
    }

    #[test]
    fn structs_pad_fields_and_round_their_size() {
        let mut t = table();
        let (i8t, i32t, i64t) = (
            t.intern(TypeKind::Int(8)),
            t.intern(TypeKind::Int(32)),
            t.intern(TypeKind::Int(64)),
        );
        let s = t.struct_of(vec![i8t, i64t, i8t, i32t], false);
        let TypeKind::Struct { offsets, .. } = &t.info(s).kind else {
            panic!()
        };
        assert_eq!(offsets, &vec![0, 8, 16, 20]);
        assert_eq!(sizes(&t, s), (24, 24, 8));
        let p = t.struct_of(vec![i8t, i64t, i8t, i32t], true);
        let TypeKind::Struct { offsets, .. } = &t.info(p).kind else {
            panic!()
        };
        assert_eq!(offsets, &vec![0, 1, 9, 10]);
        assert_eq!(sizes(&t, p), (14, 14, 1));
        let empty = t.struct_of(vec![], false);
        assert_eq!(sizes(&t, empty), (0, 0, 1));
    }

    #[test]
    fn arrays_and_vectors() {
        let mut t = table();
        let i24 = t.intern(TypeKind::Int(24));
        let arr = t.intern(TypeKind::Array { elem: i24, len: 5 });
        assert_eq!(sizes(&t, arr), (20, 20, 4), "elements are alloc-size apart");
        let i32t = t.intern(TypeKind::Int(32));
        let v4 = t.intern(TypeKind::Vector {
            elem: i32t,
            lanes: 4,
        });
        assert_eq!(sizes(&t, v4), (16, 16, 16));
        let i16t = t.intern(TypeKind::Int(16));
        let v3 = t.intern(TypeKind::Vector {
            elem: i16t,
            lanes: 3,
        });
        assert_eq!(
            sizes(&t, v3),
            (6, 8, 8),
            "naturally aligned to the next power of two"
        );
    }

    #[test]
    fn interning_shares_equal_types() {
        let mut t = table();
        let a = t.intern(TypeKind::Int(32));
        let b = t.intern(TypeKind::Int(32));
        assert_eq!(a, b);
        let s1 = t.struct_of(vec![a, a], false);
        let s2 = t.struct_of(vec![b, b], false);
        assert_eq!(s1, s2);
    }

    #[test]
    fn foreign_layouts_are_refused() {
        assert!(parse_layout("E-m:e-i64:64").is_err(), "big endian");
        assert!(parse_layout("e-m:e-p:16:16").is_err(), "16-bit pointers");
        assert!(parse_layout(X86_64).is_ok());
    }

    /// clang-14 -m32's layout: 4-byte pointers, and no `i64` entry, so LLVM's default 4-byte alignment.
    const I386: &str =
        "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128";

    #[test]
    fn i386_pointers_are_four_bytes_and_i64_is_four_aligned() {
        let mut t = TypeTable::for_layout(I386).unwrap();
        assert_eq!(sizes(&t, TypeId::PTR), (4, 4, 4));
        let i64t = t.intern(TypeKind::Int(64));
        assert_eq!(sizes(&t, i64t), (8, 8, 4));
        let i8t = t.intern(TypeKind::Int(8));
        let s = t.struct_of(vec![i8t, i64t, TypeId::PTR], false);
        let TypeKind::Struct { offsets, .. } = &t.info(s).kind else {
            panic!()
        };
        assert_eq!(offsets, &vec![0, 4, 12]);
        assert_eq!(sizes(&t, s), (16, 16, 4));
        assert_eq!(sizes(&table(), TypeId::PTR), (8, 8, 8));
    }
}
