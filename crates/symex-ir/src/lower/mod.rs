//! Lowering of an `llvm-ir` module into the compact IR: module-level tables (types, files,
//! functions, globals, the constant pool) here; constants, GEP offsets, function bodies and
//! intrinsics in the submodules.

mod atomic;
mod computed_goto;
mod const_expr;
mod consts;
mod func;
mod gep;
mod intrinsics;

/// The two's-complement reading of a `width`-bit value (for printing).
pub(crate) fn sext_public(value: u128, width: u32) -> i128 {
    consts::sext(value, width)
}

use crate::error::{FrontendError, Result};
use crate::ir::*;
use crate::layout::TypeTable;
use crate::llvm_facts::LlvmFacts;
use llvm_ir::types::Type;
use llvm_ir::{DebugLoc, Name};
use rustc_hash::{FxHashMap, FxHashSet};

/// Module-wide lowering state.
pub(crate) struct Ctx<'m> {
    pub llm: &'m llvm_ir::Module,
    pub facts: &'m LlvmFacts,
    pub types: TypeTable,
    pub consts: Vec<Const>,
    const_ids: FxHashMap<Const, ConstId>,
    /// LLVM global names (variables and functions) → what they denote.
    pub symbols: FxHashMap<Name, AddrBase>,
    /// Undefined weak functions: nothing links them, so their address is null (calls stay direct).
    pub null_symbols: FxHashSet<Name>,
    files: Vec<String>,
    file_ids: FxHashMap<String, u32>,
    /// The wide (> 64-bit) constants of the instruction or initializer being lowered.
    pub wide_scope: Vec<(u32, u128)>,
    /// Initializers list their wide constants in element order, one per occurrence, and
    /// `write_const` visits the elements in that order: each use consumes its entry.
    pub wide_scope_ordered: bool,
    /// The labels (`blockaddress`: function name, block index) of the instruction being lowered.
    pub label_scope: Vec<(String, u32)>,
}

impl<'m> Ctx<'m> {
    /// The full value of a wide constant whose low 64 bits `llvm-ir` kept: found among the wide
    /// constants of what is being lowered, else in the whole module; refused when ambiguous.
    pub fn resolve_wide(&mut self, width: u32, low: u64) -> Result<u128> {
        let matches = |(w, v): &(u32, u128)| *w == width && *v as u64 == low;
        let Some(first) = self.wide_scope.iter().position(matches) else {
            return self.facts.module_wide_value(width, low);
        };
        let value = self.wide_scope[first].1;
        if self.wide_scope_ordered {
            self.wide_scope.remove(first);
        } else if self.wide_scope.iter().any(|e| matches(e) && e.1 != value) {
            return Err(FrontendError::unsupported(format!(
                "two distinct i{width} constants with equal low 64 bits ({low:#x}) in one instruction"
            )));
        }
        Ok(value)
    }

    pub fn intern_const(&mut self, c: Const) -> ConstId {
        if let Some(&id) = self.const_ids.get(&c) {
            return id;
        }
        let id = ConstId(self.consts.len() as u32);
        self.consts.push(c.clone());
        self.const_ids.insert(c, id);
        id
    }

    /// The IR type of an LLVM type.
    pub fn ty(&mut self, ty: &llvm_ir::TypeRef) -> Result<TypeId> {
        self.types.lower(ty, &self.llm.types)
    }

    pub fn info(&self, id: TypeId) -> &TypeInfo {
        self.types.info(id)
    }

    pub fn loc(&mut self, dl: &Option<DebugLoc>) -> Loc {
        let Some(dl) = dl else { return Loc::UNKNOWN };
        let file = match self.file_ids.get(&dl.filename) {
            Some(&f) => f,
            None => {
                let f = self.files.len() as u32;
                self.files.push(dl.filename.clone());
                self.file_ids.insert(dl.filename.clone(), f);
                f
            }
        };
        Loc {
            file,
            line: dl.line,
            col: dl.col.unwrap_or(0),
        }
    }

    pub fn describe(&self, loc: Loc) -> Option<String> {
        if !loc.is_known() {
            return None;
        }
        let file = &self.files[loc.file as usize];
        Some(if loc.col == 0 {
            format!("{file}:{}", loc.line)
        } else {
            format!("{file}:{}:{}", loc.line, loc.col)
        })
    }
}

/// Lowers a whole module. `source_path` is recorded as the module's origin.
pub(crate) fn lower_module(
    llm: &llvm_ir::Module,
    facts: &LlvmFacts,
    source_path: &str,
    deadline: Option<std::time::Instant>,
) -> Result<Module> {
    let mut ctx = Ctx {
        llm,
        facts,
        types: TypeTable::new(&llm.data_layout)?,
        consts: Vec::new(),
        const_ids: FxHashMap::default(),
        symbols: FxHashMap::default(),
        null_symbols: FxHashSet::default(),
        files: Vec::new(),
        file_ids: FxHashMap::default(),
        wide_scope: Vec::new(),
        wide_scope_ordered: false,
        label_scope: Vec::new(),
    };
    let main_file = if llm.source_file_name.is_empty() {
        source_path.to_owned()
    } else {
        llm.source_file_name.clone()
    };
    ctx.files.push(main_file.clone());
    ctx.file_ids.insert(main_file, 0);

    let mut functions = declare_functions(&mut ctx)?;
    let mut globals = declare_globals(&mut ctx)?;
    resolve_aliases(&mut ctx)?;
    for (g, lg) in globals.iter_mut().zip(&llm.global_vars) {
        if let Some(init) = &lg.initializer {
            ctx.wide_scope_ordered = true;
            ctx.wide_scope = facts
                .wide_in_global
                .get(&g.name)
                .cloned()
                .unwrap_or_default();
            let data = ctx
                .global_image(init, g.ty)
                .map_err(|e| e.at(ctx.describe(g.loc), None).in_global(&g.name))?;
            g.init = Some(data);
        }
    }
    ctx.wide_scope.clear();
    ctx.wide_scope_ordered = false;
    for (f, lf) in functions.iter_mut().zip(&llm.functions) {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(FrontendError::Timeout {
                path: source_path.to_owned(),
                stage: "lowering".into(),
            });
        }
        f.body = Some(func::lower_body(&mut ctx, lf)?);
    }

    let function_names = functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), FuncId(i as u32)))
        .collect();
    let global_names = globals
        .iter()
        .enumerate()
        .map(|(i, g)| (g.name.clone(), GlobalId(i as u32)))
        .collect();
    Ok(Module {
        source_path: source_path.to_owned(),
        files: ctx.files,
        target: Target {
            triple: llm.target_triple.clone().unwrap_or_default(),
            data_layout: llm.data_layout.layout_str.clone(),
            pointer_bytes: ctx.types.pointer_bytes() as u32,
        },
        types: ctx.types.infos,
        globals,
        functions,
        consts: ctx.consts,
        function_names,
        global_names,
    })
}

impl FrontendError {
    fn in_global(self, name: &str) -> Self {
        match self {
            FrontendError::Unsupported {
                construct,
                location,
                function,
            } => FrontendError::Unsupported {
                construct: format!("{construct} in the initializer of global `{name}`"),
                location,
                function,
            },
            other => other,
        }
    }
}

/// One signature: parameter types, return type.
fn signature(
    ctx: &mut Ctx,
    name: &str,
    params: &[llvm_ir::function::Parameter],
    ret: &llvm_ir::TypeRef,
    loc: Loc,
) -> Result<(Vec<TypeId>, TypeId)> {
    let sig = (|| {
        let params = params
            .iter()
            .map(|p| ctx.ty(&p.ty))
            .collect::<Result<Vec<_>>>()?;
        Ok((params, ctx.ty(ret)?))
    })();
    sig.map_err(|e: FrontendError| e.at(ctx.describe(loc), Some(name)))
}

/// Function table: definitions first (in module order), then the non-intrinsic declarations.
impl Ctx<'_> {
    /// The type of parameter `i` of function `f` as LLVM declares it (ids follow
    /// [`declare_functions`]: definitions, then declarations other than intrinsics).
    pub(crate) fn param_type(&mut self, f: FuncId, i: usize) -> Result<Option<TypeId>> {
        let llm = self.llm;
        let k = f.0 as usize;
        let ty = match llm.functions.get(k) {
            Some(def) => def.parameters.get(i).map(|p| p.ty.clone()),
            None => llm
                .func_declarations
                .iter()
                .filter(|d| !d.name.starts_with("llvm."))
                .nth(k - llm.functions.len())
                .and_then(|d| d.parameters.get(i).map(|p| p.ty.clone())),
        };
        ty.map(|t| self.ty(&t)).transpose()
    }
}

fn declare_functions(ctx: &mut Ctx) -> Result<Vec<Function>> {
    let llm = ctx.llm;
    // Definitions and declarations are different llvm-ir types with the same signature fields.
    let defined = llm.functions.iter().map(|f| {
        let sig = (&f.name, &f.parameters, &f.return_type, f.is_var_arg);
        (sig, false, &f.debugloc)
    });
    let declared = llm
        .func_declarations
        .iter()
        .filter(|f| !f.name.starts_with("llvm."))
        .map(|f| {
            let sig = (&f.name, &f.parameters, &f.return_type, f.is_var_arg);
            let weak = f.linkage == llvm_ir::module::Linkage::ExternalWeak;
            (sig, weak, &f.debugloc)
        });
    let mut out = Vec::new();
    for ((name, parameters, return_type, is_vararg), is_extern_weak, debugloc) in
        defined.chain(declared)
    {
        let loc = ctx.loc(debugloc);
        let (params, ret) = signature(ctx, name, parameters, return_type, loc)?;
        ctx.symbols.insert(
            Name::from(name.as_str()),
            AddrBase::Function(FuncId(out.len() as u32)),
        );
        if is_extern_weak {
            ctx.null_symbols.insert(Name::from(name.as_str()));
        }
        let param_names = parameters
            .iter()
            .map(|p| match &p.name {
                Name::Name(s) => s.to_string(),
                Name::Number(_) => String::new(),
            })
            .collect();
        out.push(Function {
            name: name.clone(),
            params,
            param_names,
            ret,
            is_vararg,
            is_extern_weak,
            body: None,
            loc,
        });
    }
    Ok(out)
}

pub(crate) fn name_str(name: &Name) -> String {
    match name {
        Name::Name(s) => s.to_string(),
        Name::Number(n) => n.to_string(),
    }
}

/// Global table (initializers are filled in once every symbol is known).
fn declare_globals(ctx: &mut Ctx) -> Result<Vec<Global>> {
    let llm = ctx.llm;
    let mut out = Vec::new();
    for g in &llm.global_vars {
        let name = name_str(&g.name);
        let loc = ctx.loc(&g.debugloc);
        let value_ty = match &g.initializer {
            Some(init) => llm.type_of(init),
            None => match g.ty.as_ref() {
                Type::PointerType { pointee_type, .. } => pointee_type.clone(),
                _ => g.ty.clone(),
            },
        };
        // A global defined elsewhere with a type the module never completes (`extern struct X Y;`)
        // has no size here: an object of 0 bytes, whose address the program may take.
        let value_ty = match value_ty.as_ref() {
            Type::NamedStructType { name }
                if g.initializer.is_none()
                    && !matches!(
                        llm.types.named_struct_def(name),
                        Some(llvm_ir::types::NamedStructDef::Defined(_))
                    ) =>
            {
                llm.types.array_of(llm.types.i8(), 0)
            }
            _ => value_ty,
        };
        if g.thread_local_mode != llvm_ir::module::ThreadLocalMode::NotThreadLocal {
            return Err(
                FrontendError::unsupported(format!("thread-local global `{name}`"))
                    .at(ctx.describe(loc), None),
            );
        }
        let ty = ctx
            .ty(&value_ty)
            .map_err(|e| e.at(ctx.describe(loc), None).in_global(&name))?;
        let info = ctx.info(ty).clone();
        ctx.symbols
            .insert(g.name.clone(), AddrBase::Global(GlobalId(out.len() as u32)));
        out.push(Global {
            name,
            ty,
            size: info.alloc_size,
            align: info.align.max(u64::from(g.alignment)),
            init: None,
            is_constant: g.is_constant,
            loc,
        });
    }
    Ok(out)
}

/// Makes each `alias` name denote its aliasee (a function or global, without offset); aliases
/// of aliases resolve in as many rounds as their chain is long.
fn resolve_aliases(ctx: &mut Ctx) -> Result<()> {
    let llm = ctx.llm;
    let mut pending: Vec<&llvm_ir::module::GlobalAlias> = llm.global_aliases.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut still = Vec::new();
        for a in pending {
            match ctx.lower_const(&a.aliasee) {
                Ok(Const::Addr { base, offset: 0 }) => {
                    ctx.symbols.insert(a.name.clone(), base);
                }
                Ok(_) => {
                    return Err(FrontendError::unsupported(format!(
                        "alias `@{}` to something other than a whole function or global",
                        name_str(&a.name)
                    )))
                }
                Err(_) => still.push(a),
            }
        }
        if still.len() == before {
            let names: Vec<String> = still
                .iter()
                .map(|a| format!("@{}", name_str(&a.name)))
                .collect();
            return Err(FrontendError::unsupported(format!(
                "unresolvable aliases {}",
                names.join(", ")
            )));
        }
        pending = still;
    }
    Ok(())
}
