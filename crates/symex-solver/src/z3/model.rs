//! Reading Z3 models back as `symex_expr::Model`s.

use std::collections::BTreeMap;
use std::sync::Arc;

use symex_expr::{
    free_vars, funcs_used, ArrayValue, FuncInterp, MapSort, MapValue, Model, Sort, Term, Value,
};
use z3::ast::{Ast, Dynamic};
use z3::DeclKind;

use super::translate::Translator;

/// The values Z3's model gives (with completion) to every variable and function of
/// `constraints`.
pub(crate) fn read_model(
    tr: &mut Translator,
    zm: &z3::Model,
    constraints: &[Term],
) -> Result<Model, String> {
    let mut m = Model::new();
    for v in free_vars(constraints) {
        let d = tr.translate(&v);
        let val = zm
            .eval(&d, true)
            .ok_or_else(|| format!("Z3 gave no value for {v}"))?;
        m.insert(&v, read_value(&val, v.sort(), zm)?);
    }
    for f in funcs_used(constraints) {
        let decl = tr.func(f);
        let Some(fi) = zm.get_func_interp(decl) else {
            continue;
        };
        let mut entries = BTreeMap::new();
        for e in fi.get_entries() {
            let args = e
                .get_args()
                .iter()
                .zip(f.domain())
                .map(|(a, s)| read_value(a, *s, zm))
                .collect::<Result<Vec<_>, _>>()?;
            entries.insert(args, read_value(&e.get_value(), f.range(), zm)?);
        }
        let default = match fi.get_else() {
            Some(d) => read_value(&d, f.range(), zm)?,
            None => Value::default_of(f.range()),
        };
        m.insert_func(f, FuncInterp { entries, default });
    }
    m.shrink_to_fit(); // kept by the state that asked, and by the caches
    Ok(m)
}

/// A Z3 value (a numeral, a universe element, an array literal) of sort `sort`.
pub(crate) fn read_value(d: &Dynamic, sort: Sort, zm: &z3::Model) -> Result<Value, String> {
    let bad = || format!("cannot read the {sort} value {d}");
    match sort {
        Sort::Bool => d
            .as_bool()
            .and_then(|b| b.as_bool())
            .map(Value::Bool)
            .ok_or_else(bad),
        Sort::BitVec(width) => {
            let value = read_bv(d).ok_or_else(bad)?;
            Ok(Value::Bv { value, width })
        }
        Sort::Int => d
            .as_int()
            .and_then(|i| i.as_i128())
            .map(Value::Int)
            .ok_or_else(bad),
        Sort::Uninterpreted(u) => {
            let text = d.to_string();
            let index = text
                .rsplit('!')
                .next()
                .and_then(|n| n.trim_end_matches('|').parse::<u64>().ok())
                .ok_or_else(bad)?;
            Ok(Value::Uninterpreted { sort: u, index })
        }
        Sort::Array { index, element } => read_array(d, index, element, zm)
            .map(|a| Value::Array(Arc::new(a)))
            .ok_or_else(bad),
        Sort::Map(m) => read_map(d, m, zm)?
            .map(|a| Value::Map(Arc::new(a)))
            .ok_or_else(bad),
    }
}

/// An array of a [`Sort::Map`]: stores over a constant array or a function interpretation,
/// its indices and elements read as values of their sorts.
fn read_map(d: &Dynamic, sort: MapSort, zm: &z3::Model) -> Result<Option<MapValue>, String> {
    let (isort, esort) = (sort.index(), sort.element());
    let mut stores = Vec::new();
    let mut cur = d.clone();
    let base = loop {
        if !cur.is_app() {
            return Ok(None);
        }
        match cur.decl().kind() {
            DeclKind::Store => {
                let c = cur.children();
                stores.push((read_value(&c[1], isort, zm)?, read_value(&c[2], esort, zm)?));
                cur = c[0].clone();
            }
            DeclKind::ConstArray => {
                let Some(default) = cur.nth_child(0) else {
                    return Ok(None);
                };
                break MapValue::constant(sort, read_value(&default, esort, zm)?);
            }
            DeclKind::AsArray => {
                let Some(fi) = cur
                    .as_array()
                    .and_then(|a| a.as_array_func_decl())
                    .and_then(|decl| zm.get_func_interp(&decl))
                else {
                    return Ok(None);
                };
                let Some(default) = fi.get_else() else {
                    return Ok(None);
                };
                let mut a = MapValue::constant(sort, read_value(&default, esort, zm)?);
                for e in fi.get_entries().iter().rev() {
                    let index = read_value(&e.get_args()[0], isort, zm)?;
                    a = a.with(index, read_value(&e.get_value(), esort, zm)?);
                }
                break a;
            }
            _ => return Ok(None),
        }
    };
    Ok(Some(
        stores
            .into_iter()
            .rev()
            .fold(base, |a, (i, v)| a.with(i, v)),
    ))
}

/// A bit-vector numeral, from Z3's `#x...`/`#b...` or decimal printing.
fn read_bv(d: &Dynamic) -> Option<u128> {
    let bv = d.as_bv()?;
    if let Some(v) = bv.as_u64() {
        return Some(u128::from(v));
    }
    let text = bv.to_string();
    if let Some(hex) = text.strip_prefix("#x") {
        u128::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = text.strip_prefix("#b") {
        u128::from_str_radix(bin, 2).ok()
    } else {
        text.parse().ok()
    }
}

fn read_array(d: &Dynamic, iw: u32, ew: u32, zm: &z3::Model) -> Option<ArrayValue> {
    let empty = |default| ArrayValue {
        index_width: iw,
        element_width: ew,
        default,
        entries: BTreeMap::new(),
    };
    // Store chains are walked iteratively (they can be long).
    let mut stores = Vec::new();
    let mut cur = d.clone();
    let base = loop {
        if !cur.is_app() {
            return None;
        }
        match cur.decl().kind() {
            DeclKind::Store => {
                let c = cur.children();
                stores.push((read_bv(&c[1])?, read_bv(&c[2])?));
                cur = c[0].clone();
            }
            DeclKind::ConstArray => break empty(read_bv(&cur.nth_child(0)?)?),
            DeclKind::AsArray => {
                let decl = cur.as_array()?.as_array_func_decl()?;
                let fi = zm.get_func_interp(&decl)?;
                let mut a = empty(read_bv(&fi.get_else()?)?);
                for e in fi.get_entries().iter().rev() {
                    a = a.with(read_bv(&e.get_args()[0])?, read_bv(&e.get_value())?);
                }
                break a;
            }
            _ => return None,
        }
    };
    Some(stores.iter().rev().fold(base, |a, (i, v)| a.with(*i, *v)))
}
