//! Allocations that copy or align: `strdup`, `strndup`, and the aligned allocators (`memalign`,
//! `aligned_alloc`, `posix_memalign`). Every heap block starts an object of its own at offset 0 of its
//! region, so every alignment a program can ask for holds already.

use super::{alloc::allocate, string::length, Model};
use crate::bug::End;
use crate::domain::{Decision, Domain};
use crate::program::Program;
use crate::state::State;

pub(super) fn call<D: Domain>(
    st: &mut State<D>,
    prog: &Program,
    model: Model,
    args: &[D::Val],
) -> Result<Option<D::Val>, End> {
    Ok(Some(match model {
        Model::Strdup | Model::Strndup => {
            let max = match model {
                Model::Strndup => Some(st.dom.choose(Decision::Length, &args[1], 64) as u64),
                _ => None,
            };
            let n = length(st, prog, &args[0], max)?;
            let block = allocate(st, prog, u128::from(n) + 1, false)?;
            st.copy_memory(prog, &block, &args[0], n)?;
            let end = st.ptr_add(&block, n);
            let nul = st.dom.constant(8, 0);
            st.store_scalar(prog, &end, &nul, 1, 8)?;
            block
        }
        Model::Memalign => {
            let n = st.dom.choose(Decision::AllocSize, &args[1], 64);
            allocate(st, prog, n, false)?
        }
        Model::PosixMemalign => {
            let n = st.dom.choose(Decision::AllocSize, &args[2], 64);
            let block = allocate(st, prog, n, false)?;
            let bytes = u64::from(prog.module().target.pointer_bytes);
            let ptr = Some(crate::provenance::Provenance::Pointer);
            st.store_scalar_as(prog, &args[0], &block, bytes, 64, ptr)?;
            st.dom.constant(32, 0)
        }
        _ => unreachable!("not a copying or aligned allocation"),
    }))
}
