//! GEP offsets: each index either scales (pointer, array and vector steps) or selects a struct
//! field at a fixed byte offset (struct indices are always constants).

use super::Ctx;
use crate::error::{FrontendError, Result};
use crate::ir::{TypeId, TypeKind};

/// What one GEP index contributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `index * scale` bytes.
    Scale(i64),
    /// A struct field: a fixed number of bytes whatever the index (which was constant).
    Fixed(i64),
}

impl Step {
    pub fn offset_for(self, index: i64) -> i64 {
        match self {
            Step::Scale(s) => index.wrapping_mul(s),
            Step::Fixed(off) => off,
        }
    }
}

/// The steps of a GEP over `source` with the given indices (`None` = not a constant).
pub(crate) fn walk_indices(
    ctx: &Ctx,
    source: TypeId,
    indices: &[Option<i64>],
) -> Result<Vec<Step>> {
    let mut steps = Vec::with_capacity(indices.len());
    let mut cur = source;
    for (i, idx) in indices.iter().enumerate() {
        if i == 0 {
            steps.push(Step::Scale(ctx.info(source).alloc_size as i64));
            continue;
        }
        match &ctx.info(cur).kind {
            TypeKind::Array { elem, .. } | TypeKind::Vector { elem, .. } => {
                let elem = *elem;
                steps.push(Step::Scale(ctx.info(elem).alloc_size as i64));
                cur = elem;
            }
            TypeKind::Struct {
                fields, offsets, ..
            } => {
                let k = idx
                    .filter(|k| (0..fields.len() as i64).contains(k))
                    .ok_or_else(|| {
                        FrontendError::unsupported(
                            "GEP with a non-constant or out-of-range struct index",
                        )
                    })? as usize;
                steps.push(Step::Fixed(offsets[k] as i64));
                cur = fields[k];
            }
            other => {
                return Err(FrontendError::unsupported(format!(
                    "GEP indexing into a non-aggregate type ({other:?})"
                )))
            }
        }
    }
    Ok(steps)
}
