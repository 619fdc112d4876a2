//! A readable text form of the IR (`format!("{}", module)`), for debugging and test failures.

use crate::ir::*;
use std::fmt::{self, Display, Formatter, Write as _};

struct Printer<'m> {
    m: &'m Module,
}

impl Printer<'_> {
    fn ty(&self, t: TypeId) -> String {
        let info = self.m.ty(t);
        match &info.kind {
            TypeKind::Void => "void".into(),
            TypeKind::Int(w) => format!("i{w}"),
            TypeKind::Ptr => "ptr".into(),
            TypeKind::Array { elem, len } => format!("[{len} x {}]", self.ty(*elem)),
            TypeKind::Vector { elem, lanes } => format!("<{lanes} x {}>", self.ty(*elem)),
            TypeKind::Struct {
                fields,
                offsets,
                packed,
            } => {
                let body: Vec<String> = fields
                    .iter()
                    .zip(offsets)
                    .map(|(f, o)| format!("{}@{o}", self.ty(*f)))
                    .collect();
                let (l, r) = if *packed { ("<{", "}>") } else { ("{", "}") };
                format!("{l} {} {r}", body.join(", "))
            }
        }
    }

    fn base(&self, b: AddrBase) -> String {
        match b {
            AddrBase::Global(g) => format!("@{}", self.m.global(g).name),
            AddrBase::Function(f) => format!("@{}", self.m.func(f).name),
        }
    }

    fn konst(&self, k: &Const) -> String {
        match k {
            Const::Int { width, value } => match width {
                1..=64 => format!("{}", crate::lower::sext_public(*value, *width)),
                _ => format!("{value:#x}"),
            },
            Const::Null => "null".into(),
            Const::Addr { base, offset: 0 } => self.base(*base),
            Const::Addr { base, offset } => format!("{}{offset:+}", self.base(*base)),
            Const::AddrAsInt {
                base,
                offset,
                width,
            } => format!("i{width}({}{offset:+})", self.base(*base)),
            Const::Undef(t) => format!("undef:{}", self.ty(*t)),
            Const::Aggregate { ty, data } => format!(
                "{}{{{} bytes, {} relocs}}",
                self.ty(*ty),
                data.bytes.len(),
                data.relocs.len()
            ),
        }
    }

    fn op(&self, o: Operand) -> String {
        match o {
            Operand::Slot(s) => format!("%{}", s.0),
            Operand::Const(k) => self.konst(self.m.konst(k)),
        }
    }

    fn ops(&self, os: &[Operand]) -> String {
        os.iter()
            .map(|o| self.op(*o))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn edge(&self, e: &Edge) -> String {
        let mut s = format!("bb{}", e.to.0);
        if !e.moves.is_empty() {
            let moves: Vec<String> = e
                .moves
                .iter()
                .map(|m| format!("%{} <- {}", m.dst.0, self.op(m.src)))
                .collect();
            let _ = write!(s, " [{}]", moves.join(", "));
        }
        s
    }

    fn flags(f: ArithFlags) -> String {
        let mut s = String::new();
        for (on, name) in [(f.nuw(), " nuw"), (f.nsw(), " nsw"), (f.exact(), " exact")] {
            if on {
                s += name;
            }
        }
        s
    }

    fn inst(&self, i: &Inst) -> String {
        let d = |s: &Slot| format!("%{} = ", s.0);
        match i {
            Inst::Bin {
                op,
                flags,
                width,
                dst,
                lhs,
                rhs,
            } => {
                format!(
                    "{}{op:?}{} i{width} {}, {}",
                    d(dst),
                    Self::flags(*flags),
                    self.op(*lhs),
                    self.op(*rhs)
                )
            }
            Inst::ICmp {
                pred,
                width,
                dst,
                lhs,
                rhs,
            } => {
                format!(
                    "{}icmp {pred:?} i{width} {}, {}",
                    d(dst),
                    self.op(*lhs),
                    self.op(*rhs)
                )
            }
            Inst::Cast {
                op,
                from,
                to,
                dst,
                src,
            } => format!("{}{op:?} i{from} {} to i{to}", d(dst), self.op(*src)),
            Inst::Copy { dst, src } => format!("{}copy {}", d(dst), self.op(*src)),
            Inst::Freeze { dst, src } => format!("{}freeze {}", d(dst), self.op(*src)),
            Inst::Select {
                dst,
                cond,
                on_true,
                on_false,
            } => {
                format!(
                    "{}select {}, {}, {}",
                    d(dst),
                    self.op(*cond),
                    self.op(*on_true),
                    self.op(*on_false)
                )
            }
            Inst::Gep {
                dst,
                base,
                offset,
                indices,
                inbounds,
            } => {
                let mut s = format!(
                    "{}gep{} {} + {offset}",
                    d(dst),
                    if *inbounds { " inbounds" } else { "" },
                    self.op(*base)
                );
                for g in indices.iter() {
                    let _ = write!(s, " + i{} {} * {}", g.width, self.op(g.index), g.scale);
                }
                s
            }
            Inst::Load {
                dst,
                ptr,
                ty,
                size,
                align,
                volatile,
                ..
            } => format!(
                "{}load{} {} [{size} bytes] from {} align {align}",
                d(dst),
                if *volatile { " volatile" } else { "" },
                self.ty(*ty),
                self.op(*ptr)
            ),
            Inst::Store {
                ptr,
                val,
                ty,
                size,
                align,
                volatile,
                ..
            } => format!(
                "store{} {} {} [{size} bytes] to {} align {align}",
                if *volatile { " volatile" } else { "" },
                self.ty(*ty),
                self.op(*val),
                self.op(*ptr)
            ),
            Inst::Alloca {
                dst,
                ty,
                elem_size,
                count,
                count_width,
                align,
            } => match count {
                None => format!(
                    "{}alloca {} [{elem_size} bytes] align {align}",
                    d(dst),
                    self.ty(*ty)
                ),
                Some(c) => format!(
                    "{}alloca {} [{elem_size} bytes] x i{count_width} {} align {align}",
                    d(dst),
                    self.ty(*ty),
                    self.op(*c)
                ),
            },
            Inst::Call(c) => {
                let callee = match c.callee {
                    Callee::Direct(f) => format!("@{}", self.m.func(f).name),
                    Callee::Indirect(o) => self.op(o),
                };
                let dst = c.dst.as_ref().map(d).unwrap_or_default();
                format!(
                    "{dst}call {} {callee}({})",
                    self.ty(c.ret),
                    self.ops(&c.args)
                )
            }
            Inst::Intrinsic { dst, op, args } => {
                let dst = dst.as_ref().map(d).unwrap_or_default();
                format!("{dst}{op:?}({})", self.ops(args))
            }
            Inst::ExtractValue {
                dst,
                agg,
                offset,
                ty,
            } => {
                format!(
                    "{}extractvalue {} @{offset} as {}",
                    d(dst),
                    self.op(*agg),
                    self.ty(*ty)
                )
            }
            Inst::InsertValue {
                dst,
                agg,
                val,
                offset,
                ty,
            } => format!(
                "{}insertvalue {} @{offset} = {} {}",
                d(dst),
                self.op(*agg),
                self.ty(*ty),
                self.op(*val)
            ),
            Inst::Vector(v) => format!("{}{v:?}", d(&v.dst())),
        }
    }

    fn term(&self, t: &Terminator) -> String {
        match t {
            Terminator::Ret(None) => "ret".into(),
            Terminator::Ret(Some(o)) => format!("ret {}", self.op(*o)),
            Terminator::Br(e) => format!("br {}", self.edge(e)),
            Terminator::CondBr {
                cond,
                if_true,
                if_false,
            } => {
                format!(
                    "br {} ? {} : {}",
                    self.op(*cond),
                    self.edge(if_true),
                    self.edge(if_false)
                )
            }
            Terminator::Switch(s) => {
                let cases: Vec<String> = s
                    .cases
                    .iter()
                    .map(|(v, e)| format!("{v} => {}", self.edge(e)))
                    .collect();
                format!(
                    "switch i{} {} [{}] default {}",
                    s.width,
                    self.op(s.value),
                    cases.join(", "),
                    self.edge(&s.default)
                )
            }
            Terminator::Unreachable => "unreachable".into(),
        }
    }

    fn function(&self, f: &Function, out: &mut Formatter<'_>) -> fmt::Result {
        let params: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{} %{i}", self.ty(*t)))
            .collect();
        let va = if f.is_vararg { ", ..." } else { "" };
        let kw = if f.is_declaration() {
            "declare"
        } else {
            "define"
        };
        write!(
            out,
            "{kw} {} @{}({}{va})",
            self.ty(f.ret),
            f.name,
            params.join(", ")
        )?;
        let Some(body) = &f.body else {
            return writeln!(out);
        };
        writeln!(out, " {{ ; {} slots", body.num_slots)?;
        for (i, b) in body.blocks.iter().enumerate() {
            writeln!(out, "bb{i}: ; {}", b.name)?;
            for phi in &b.phis {
                let inc: Vec<String> = phi
                    .incoming
                    .iter()
                    .map(|(o, b)| format!("[{}, bb{}]", self.op(*o), b.0))
                    .collect();
                writeln!(
                    out,
                    "  %{} = phi {} {}",
                    phi.dst.0,
                    self.ty(phi.ty),
                    inc.join(" ")
                )?;
            }
            for (inst, loc) in b.insts.iter().zip(&b.locs) {
                write!(out, "  {}", self.inst(inst))?;
                if loc.is_known() {
                    write!(out, "  ; {}", self.m.describe_loc(*loc))?;
                }
                writeln!(out)?;
            }
            writeln!(out, "  {}", self.term(&b.term))?;
        }
        writeln!(out, "}}")
    }
}

impl Display for Module {
    fn fmt(&self, out: &mut Formatter<'_>) -> fmt::Result {
        let p = Printer { m: self };
        writeln!(out, "; {} ({})", self.source_path, self.target.triple)?;
        for g in &self.globals {
            let kind = if g.is_constant { "constant" } else { "global" };
            write!(
                out,
                "@{} = {kind} {} size {} align {}",
                g.name,
                p.ty(g.ty),
                g.size,
                g.align
            )?;
            match &g.init {
                None => writeln!(out, " external")?,
                Some(d) => {
                    let relocs: Vec<String> = d
                        .relocs
                        .iter()
                        .map(|r| format!("{}: {}{:+}", r.offset, p.base(r.target), r.addend))
                        .collect();
                    writeln!(out, " relocs [{}]", relocs.join(", "))?
                }
            }
        }
        for f in &self.functions {
            writeln!(out)?;
            p.function(f, out)?;
        }
        Ok(())
    }
}
