//! Calls: direct, indirect, and the LLVM intrinsics symex gives meaning to.

use super::consts::mask;
use super::func::{FnLower, Shape};
use crate::error::{FrontendError, Result};
use crate::ir::*;
use llvm_ir::function::ParameterAttribute;
use llvm_ir::instruction::Call as LlCall;
use llvm_ir::{Constant, Operand as LlOperand};

/// Intrinsics that only annotate the program (debug info, hints): dropped.
const IGNORED: &[&str] = &[
    "llvm.dbg.",
    "llvm.invariant.",
    "llvm.experimental.noalias.scope.decl",
    "llvm.donothing",
    "llvm.sideeffect",
    "llvm.prefetch",
    "llvm.var.annotation",
    "llvm.codeview.annotation",
];

/// The named function a callee operand denotes, seeing through constant bitcasts.
fn callee_name(op: &LlOperand) -> Option<&llvm_ir::Name> {
    let LlOperand::ConstantOperand(c) = op else {
        return None;
    };
    let mut c = c.as_ref();
    loop {
        match c {
            Constant::GlobalReference { name, .. } => return Some(name),
            Constant::BitCast(b) => c = b.operand.as_ref(),
            _ => return None,
        }
    }
}

impl FnLower<'_, '_> {
    pub(super) fn call(&mut self, c: &LlCall, out: &mut Vec<Inst>) -> Result<()> {
        let Some(fop) = c.function.as_ref().right() else {
            return Err(FrontendError::unsupported("inline assembly"));
        };
        let dst = c.dest.as_ref().map(|d| self.dst(d)).transpose()?;
        if let Some(name) = callee_name(fop) {
            let name = super::name_str(name);
            if name.starts_with("llvm.") {
                return self.intrinsic(&name, c, dst, out);
            }
        }
        let callee = match callee_name(fop).and_then(|n| self.ctx.symbols.get(n)) {
            Some(AddrBase::Function(f)) => Callee::Direct(*f),
            _ => Callee::Indirect(self.op(fop)?),
        };
        let mut args = Vec::with_capacity(c.arguments.len());
        let mut arg_types = Vec::with_capacity(c.arguments.len());
        let mut byval = Vec::new();
        let mut stack_token = None;
        for (i, (a, attrs)) in c.arguments.iter().enumerate() {
            let mut arg = self.op(a)?;
            if let Some(ty) = attrs.iter().find_map(|at| match at {
                ParameterAttribute::ByVal(ty) => Some(ty.clone()),
                _ => None,
            }) {
                byval.push((i, self.ctx.ty(&ty)?));
                arg = self.byval_copy(arg, &ty, &mut stack_token, out)?;
            }
            let mut ty = self.op_ty(a)?;
            if let Callee::Direct(f) = callee {
                (arg, ty) = self.abi_extended(f, i, attrs, arg, ty, out)?;
            }
            args.push(arg);
            arg_types.push(ty);
        }
        // LLVM 14 has no call-site function type in llvm-ir; the result slot carries it.
        let ret = dst.map_or(TypeId::VOID, |d| self.slot_types[d.0 as usize]);
        out.push(Inst::Call(Box::new(Call {
            dst,
            callee,
            args,
            arg_types,
            byval,
            ret,
        })));
        if let Some(token) = stack_token {
            out.push(Inst::Intrinsic {
                dst: None,
                op: Intrinsic::StackRestore,
                args: Box::new([Operand::Slot(token)]),
            });
        }
        Ok(())
    }

    /// An argument marked `signext`/`zeroext` is extended by the caller to the register's width (x86-64
    /// SysV), so a callee declared with a wider parameter (`short f(short)` as an alias of
    /// `int g(int)`, KLEE's FunctionAlias test) reads the extended value: the extension is made here.
    fn abi_extended(
        &mut self,
        f: FuncId,
        i: usize,
        attrs: &[ParameterAttribute],
        arg: Operand,
        ty: TypeId,
        out: &mut Vec<Inst>,
    ) -> Result<(Operand, TypeId)> {
        let op = if attrs.contains(&ParameterAttribute::SignExt) {
            CastOp::SExt
        } else if attrs.contains(&ParameterAttribute::ZeroExt) {
            CastOp::ZExt
        } else {
            return Ok((arg, ty));
        };
        let Some(param) = self.ctx.param_type(f, i)? else {
            return Ok((arg, ty));
        };
        match (self.shape(ty), self.shape(param)) {
            (Shape::Int(from), Shape::Int(to)) if from < to && to <= 32 => {
                let dst = self.fresh_slot(param);
                out.push(Inst::Cast {
                    op,
                    from,
                    to,
                    dst,
                    src: arg,
                });
                Ok((Operand::Slot(dst), param))
            }
            _ => Ok((arg, ty)),
        }
    }

    /// A `byval` argument is the callee's own copy of the pointee, which the callee may write:
    /// the call gets a fresh stack copy (freed right after the call through stacksave/restore),
    /// so no semantics needs to know about `byval`. (At -O2 clang passes globals byval directly.)
    fn byval_copy(
        &mut self,
        arg: Operand,
        ty: &llvm_ir::TypeRef,
        stack_token: &mut Option<Slot>,
        out: &mut Vec<Inst>,
    ) -> Result<Operand> {
        let ty = self.ctx.ty(ty)?;
        let info = self.ctx.info(ty).clone();
        if stack_token.is_none() {
            let token = self.fresh_slot(TypeId::PTR);
            out.push(Inst::Intrinsic {
                dst: Some(token),
                op: Intrinsic::StackSave,
                args: Box::new([]),
            });
            *stack_token = Some(token);
        }
        let copy = self.fresh_slot(TypeId::PTR);
        out.push(Inst::Alloca {
            dst: copy,
            ty,
            elem_size: info.alloc_size,
            count: None,
            count_width: 0,
            align: info.align as u32,
        });
        let len = self.ctx.intern_const(Const::Int {
            width: 64,
            value: u128::from(info.store_size),
        });
        out.push(Inst::Intrinsic {
            dst: None,
            op: Intrinsic::Memcpy {
                len_width: 64,
                volatile: false,
            },
            args: Box::new([Operand::Slot(copy), arg, Operand::Const(len)]),
        });
        Ok(Operand::Slot(copy))
    }

    fn args(&mut self, c: &LlCall, n: usize) -> Result<Box<[Operand]>> {
        c.arguments
            .iter()
            .take(n)
            .map(|(a, _)| self.op(a))
            .collect::<Result<Vec<_>>>()
            .map(Vec::into_boxed_slice)
    }

    /// A constant boolean argument (the `is_volatile` / `is_zero_poison` flags).
    fn flag_arg(&mut self, c: &LlCall, i: usize) -> Result<bool> {
        match c.arguments.get(i).map(|(a, _)| a) {
            Some(LlOperand::ConstantOperand(k)) => match self.ctx.lower_const(k)? {
                Const::Int { value, .. } => Ok(value & mask(1) != 0),
                _ => Err(FrontendError::unsupported("non-constant intrinsic flag")),
            },
            _ => Err(FrontendError::unsupported("non-constant intrinsic flag")),
        }
    }

    /// The shape of the `i`-th argument.
    fn arg_shape(&mut self, c: &LlCall, i: usize) -> Result<Shape> {
        let (a, _) = c
            .arguments
            .get(i)
            .ok_or_else(|| FrontendError::unsupported("intrinsic call with too few arguments"))?;
        let ty = self.op_ty(a)?;
        Ok(self.shape(ty))
    }

    fn intrinsic(
        &mut self,
        name: &str,
        c: &LlCall,
        dst: Option<Slot>,
        out: &mut Vec<Inst>,
    ) -> Result<()> {
        if IGNORED.iter().any(|p| name.starts_with(p)) {
            return Ok(());
        }
        let base = intrinsic_base(name);
        if matches!(
            base,
            "llvm.expect" | "llvm.expect.with.probability" | "llvm.ssa.copy"
        ) {
            let (Some(dst), Some((a, _))) = (dst, c.arguments.first()) else {
                return Err(FrontendError::unsupported(format!("malformed `{name}`")));
            };
            out.push(Inst::Copy {
                dst,
                src: self.op(a)?,
            });
            return Ok(());
        }
        if base == "llvm.is.constant" {
            // What LLVM's own codegen answers for an `is.constant` that survived optimisation.
            let Some(dst) = dst else {
                return Err(FrontendError::unsupported(format!("malformed `{name}`")));
            };
            let no = self.ctx.intern_const(Const::Int { width: 1, value: 0 });
            out.push(Inst::Copy {
                dst,
                src: Operand::Const(no),
            });
            return Ok(());
        }
        if let Some(rop) = reduce_op(base) {
            let Shape::Vector { elem_width, lanes } = self.arg_shape(c, 0)? else {
                return Err(FrontendError::unsupported(format!(
                    "`{name}` on a non-vector"
                )));
            };
            let (Some(dst), Some((a, _))) = (dst, c.arguments.first()) else {
                return Err(FrontendError::unsupported(format!("malformed `{name}`")));
            };
            let src = self.op(a)?;
            out.push(Inst::Vector(Box::new(VectorInst::Reduce {
                op: rop,
                elem_width,
                lanes,
                dst,
                src,
            })));
            return Ok(());
        }
        let first = if c.arguments.is_empty() {
            Shape::Other
        } else {
            self.arg_shape(c, 0)?
        };
        let (width, lanes) = match first {
            Shape::Int(w) => (w, None),
            Shape::Vector { elem_width, lanes } => (elem_width, Some(lanes)),
            _ => (0, None),
        };
        let (op, nargs) = match base {
            "llvm.sadd.with.overflow" => (
                Intrinsic::Overflow {
                    op: OverflowOp::SAdd,
                    width,
                },
                2,
            ),
            "llvm.uadd.with.overflow" => (
                Intrinsic::Overflow {
                    op: OverflowOp::UAdd,
                    width,
                },
                2,
            ),
            "llvm.ssub.with.overflow" => (
                Intrinsic::Overflow {
                    op: OverflowOp::SSub,
                    width,
                },
                2,
            ),
            "llvm.usub.with.overflow" => (
                Intrinsic::Overflow {
                    op: OverflowOp::USub,
                    width,
                },
                2,
            ),
            "llvm.smul.with.overflow" => (
                Intrinsic::Overflow {
                    op: OverflowOp::SMul,
                    width,
                },
                2,
            ),
            "llvm.umul.with.overflow" => (
                Intrinsic::Overflow {
                    op: OverflowOp::UMul,
                    width,
                },
                2,
            ),
            "llvm.sadd.sat" => (
                Intrinsic::Saturating {
                    op: SatOp::SAdd,
                    width,
                },
                2,
            ),
            "llvm.uadd.sat" => (
                Intrinsic::Saturating {
                    op: SatOp::UAdd,
                    width,
                },
                2,
            ),
            "llvm.ssub.sat" => (
                Intrinsic::Saturating {
                    op: SatOp::SSub,
                    width,
                },
                2,
            ),
            "llvm.usub.sat" => (
                Intrinsic::Saturating {
                    op: SatOp::USub,
                    width,
                },
                2,
            ),
            "llvm.umin" => (
                Intrinsic::MinMax {
                    op: MinMaxOp::UMin,
                    width,
                },
                2,
            ),
            "llvm.umax" => (
                Intrinsic::MinMax {
                    op: MinMaxOp::UMax,
                    width,
                },
                2,
            ),
            "llvm.smin" => (
                Intrinsic::MinMax {
                    op: MinMaxOp::SMin,
                    width,
                },
                2,
            ),
            "llvm.smax" => (
                Intrinsic::MinMax {
                    op: MinMaxOp::SMax,
                    width,
                },
                2,
            ),
            "llvm.abs" => {
                let int_min_is_poison = self.flag_arg(c, 1)?;
                (
                    Intrinsic::Abs {
                        width,
                        int_min_is_poison,
                    },
                    1,
                )
            }
            "llvm.ctpop" => (Intrinsic::Ctpop { width }, 1),
            "llvm.ctlz" => {
                let zero_is_poison = self.flag_arg(c, 1)?;
                (
                    Intrinsic::Ctlz {
                        width,
                        zero_is_poison,
                    },
                    1,
                )
            }
            "llvm.cttz" => {
                let zero_is_poison = self.flag_arg(c, 1)?;
                (
                    Intrinsic::Cttz {
                        width,
                        zero_is_poison,
                    },
                    1,
                )
            }
            "llvm.bswap" => (Intrinsic::Bswap { width }, 1),
            "llvm.bitreverse" => (Intrinsic::Bitreverse { width }, 1),
            "llvm.fshl" => (Intrinsic::Fshl { width }, 3),
            "llvm.fshr" => (Intrinsic::Fshr { width }, 3),
            "llvm.memcpy" | "llvm.memcpy.inline" | "llvm.memmove" | "llvm.memset" => {
                let Shape::Int(len_width) = self.arg_shape(c, 2)? else {
                    return Err(FrontendError::unsupported(format!(
                        "`{name}` with a non-integer length"
                    )));
                };
                let volatile = self.flag_arg(c, 3)?;
                let op = match base {
                    "llvm.memcpy" | "llvm.memcpy.inline" => Intrinsic::Memcpy {
                        len_width,
                        volatile,
                    },
                    "llvm.memmove" => Intrinsic::Memmove {
                        len_width,
                        volatile,
                    },
                    _ => Intrinsic::Memset {
                        len_width,
                        volatile,
                    },
                };
                (op, 3)
            }
            "llvm.lifetime.start" => (Intrinsic::LifetimeStart, 2),
            "llvm.lifetime.end" => (Intrinsic::LifetimeEnd, 2),
            "llvm.stacksave" => (Intrinsic::StackSave, 0),
            "llvm.stackrestore" => (Intrinsic::StackRestore, 1),
            "llvm.va_start" => (Intrinsic::VaStart, 1),
            "llvm.va_end" => (Intrinsic::VaEnd, 1),
            "llvm.va_copy" => (Intrinsic::VaCopy, 2),
            "llvm.trap" | "llvm.debugtrap" | "llvm.ubsantrap" => (Intrinsic::Trap, 0),
            "llvm.assume" => (Intrinsic::Assume, 1),
            _ => {
                return Err(FrontendError::unsupported(format!(
                    "LLVM intrinsic `{name}`"
                )))
            }
        };
        let args = self.args(c, nargs)?;
        if let Some(lanes) = lanes {
            let Some(dst) = dst else {
                return Err(FrontendError::unsupported(format!(
                    "`{name}` without a result"
                )));
            };
            if matches!(op, Intrinsic::Overflow { .. }) {
                return Err(FrontendError::unsupported(format!("vector `{name}`")));
            }
            out.push(Inst::Vector(Box::new(VectorInst::LaneIntrinsic {
                op,
                lanes,
                dst,
                args: args.into_vec(),
            })));
        } else {
            out.push(Inst::Intrinsic { dst, op, args });
        }
        Ok(())
    }
}

/// `llvm.umin.i32` → `llvm.umin`; `llvm.memcpy.p0i8.p0i8.i64` → `llvm.memcpy`: strips the
/// overload suffixes (type names start with `i`, `v`, `p` followed by a digit).
fn intrinsic_base(name: &str) -> &str {
    let mut end = name.len();
    for (i, part) in name
        .match_indices('.')
        .map(|(i, _)| (i, &name[i + 1..]))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        let seg = part.split('.').next().unwrap_or("");
        let is_type = seg.len() > 1
            && matches!(seg.as_bytes()[0], b'i' | b'v' | b'p')
            && seg.as_bytes()[1].is_ascii_digit();
        if is_type {
            end = i;
        } else {
            break;
        }
    }
    &name[..end]
}

fn reduce_op(base: &str) -> Option<ReduceOp> {
    Some(match base {
        "llvm.vector.reduce.add" => ReduceOp::Add,
        "llvm.vector.reduce.mul" => ReduceOp::Mul,
        "llvm.vector.reduce.and" => ReduceOp::And,
        "llvm.vector.reduce.or" => ReduceOp::Or,
        "llvm.vector.reduce.xor" => ReduceOp::Xor,
        "llvm.vector.reduce.smax" => ReduceOp::SMax,
        "llvm.vector.reduce.smin" => ReduceOp::SMin,
        "llvm.vector.reduce.umax" => ReduceOp::UMax,
        "llvm.vector.reduce.umin" => ReduceOp::UMin,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::intrinsic_base;

    #[test]
    fn overload_suffixes_are_stripped() {
        assert_eq!(intrinsic_base("llvm.umin.i32"), "llvm.umin");
        assert_eq!(intrinsic_base("llvm.memcpy.p0i8.p0i8.i64"), "llvm.memcpy");
        assert_eq!(
            intrinsic_base("llvm.sadd.with.overflow.i64"),
            "llvm.sadd.with.overflow"
        );
        assert_eq!(
            intrinsic_base("llvm.vector.reduce.add.v4i32"),
            "llvm.vector.reduce.add"
        );
        assert_eq!(intrinsic_base("llvm.stacksave"), "llvm.stacksave");
        assert_eq!(intrinsic_base("llvm.expect.i64"), "llvm.expect");
    }
}
