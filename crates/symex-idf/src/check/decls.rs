//! The declaration table: classes, their fields and the signatures of their methods.
//!
//! Built from a first parse so that the second parse can tell multiplication from the
//! separating conjunction (`spec/idf-language.md`: `*` is multiplication when both operands
//! are integers), and used by the checker for name resolution.
use crate::syntax::ast::{self, Member, Type};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodKind {
    Mutator,
    Constructor,
    Pure,
    Predicate,
}

#[derive(Clone, Debug)]
pub struct Signature {
    pub kind: MethodKind,
    pub ret: Type,
    pub params: Vec<(String, Type)>,
}

#[derive(Clone, Debug, Default)]
pub struct ClassInfo {
    /// Fields in declaration order.
    pub fields: Vec<(String, Type)>,
    pub methods: BTreeMap<String, Signature>,
}

impl ClassInfo {
    pub fn field(&self, name: &str) -> Option<&Type> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Decls {
    pub classes: BTreeMap<String, ClassInfo>,
}

/// The name of the mutator a constructor of class `C` stands for (the paper's `init_C`).
pub fn init_name(class: &str) -> String {
    format!("init_{class}")
}

impl Decls {
    /// Collects what it can; duplicates and unknown types are the checker's to report.
    pub fn collect(program: &ast::Program) -> Decls {
        let mut classes = BTreeMap::new();
        classes.insert("Object".to_string(), ClassInfo::default());
        for class in &program.classes {
            let mut info = ClassInfo::default();
            for member in &class.members {
                let params = |ps: &[ast::Param]| {
                    ps.iter()
                        .map(|p| (p.name.name.clone(), p.ty.clone()))
                        .collect()
                };
                let (name, sig) = match member {
                    Member::Field { ty, name } => {
                        info.fields.push((name.name.clone(), ty.clone()));
                        continue;
                    }
                    Member::Constructor(m) => (
                        init_name(&class.name.name),
                        Signature {
                            kind: MethodKind::Constructor,
                            ret: Type::Void,
                            params: params(&m.params),
                        },
                    ),
                    Member::Mutator(m) => (
                        m.name.name.clone(),
                        Signature {
                            kind: MethodKind::Mutator,
                            ret: m.ret.clone(),
                            params: params(&m.params),
                        },
                    ),
                    Member::Pure {
                        ret,
                        name,
                        params: ps,
                        ..
                    } => (
                        name.name.clone(),
                        Signature {
                            kind: MethodKind::Pure,
                            ret: ret.clone(),
                            params: params(ps),
                        },
                    ),
                    Member::Predicate {
                        name, params: ps, ..
                    } => (
                        name.name.clone(),
                        Signature {
                            kind: MethodKind::Predicate,
                            ret: Type::Bool,
                            params: params(ps),
                        },
                    ),
                };
                info.methods.entry(name).or_insert(sig);
            }
            classes.entry(class.name.name.clone()).or_insert(info);
        }
        Decls { classes }
    }

    pub fn class(&self, name: &str) -> Option<&ClassInfo> {
        self.classes.get(name)
    }

    pub fn method(&self, class: &str, name: &str) -> Option<&Signature> {
        self.classes.get(class).and_then(|c| c.methods.get(name))
    }
}
