//! Item-level pruning of the inlined `games` crate: keep what the solver's `main` reaches.
//!
//! The crate's items are indexed once (functions, types, consts and statics, traits, impl
//! blocks and each of their items, macros, `use` leaves), each with what its code names:
//! paths (`Self` replaced by the impl's type), method calls `.name(`, macro invocations, and
//! the same found in macro arguments and inline format arguments (`"{SIZE}"`). Starting from
//! the solver, names are resolved the way rustc resolves them in this crate — `crate::`,
//! `self::`, `super::`, local items, child modules, `use` imports and re-exports — and an
//! item is kept when kept code names it. Without type inference a method call cannot be
//! tied to its receiver, so:
//!
//! - an inherent method is kept when its type is kept and it is named by a path
//!   (`Board::new`, `Self::flips`) or called on a value of its type (or of unknown type);
//! - `FromStr` for a type is kept only where kept code may parse text into it: a `parse`
//!   without a target, a `parse::<T>` or `T::from_str` naming it, or a generic `T` whose
//!   bounds it meets;
//! - a trait impl whose trait names one of the crate's types (`From<GridError>`) is kept
//!   only if that type is;
//! - a trait impl is kept when its type and its trait are kept (a trait of the standard
//!   library counts as kept: `Display` is used by `format!`, which names no type), and then
//!   all its items are; a trait keeps all its items;
//! - a `use` leaf is kept when a kept item's path resolves through it, or, for a trait of
//!   the standard library imported for its methods (`fmt::Write`, `io::Read`), when the
//!   module's kept code calls one of those methods;
//! - whatever the index does not understand (an item-level macro call, `extern` blocks)
//!   is kept.
//!
//! A method call's receiver is typed where syntax tells (`self`, typed parameters and
//! `let`s, fields, what a crate function returns, `?` and `unwrap`, text and numbers), so
//! `board.play(..)` keeps `Board::play` only; a call on a value of unknown type keeps every
//! method of that name. Enum variants that kept code never constructs go with their match
//! arms, and struct fields that it never reads and sets only to constants go with those
//! values; then the pass runs again, since a dropped arm may have been all that named
//! something. `BUNDLER_TRACE=1` lists on stderr the calls whose receiver stayed unknown.
//!
//! Any of these rules can keep too much; none removes an item that the kept code names.
//! rustc's dead-code lint is the judge of the result: every bundle must compile with no
//! warning (the bundle tests).

use super::segment_names;
use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use syn::visit::Visit;

/// The module path of the solver's own items, which are all kept. It cannot clash with a
/// module of the crate: no identifier starts with a space.
const SOLVER: &str = " solver";

/// Removes from `items` (the inlined crate's root, its modules inline) every item that
/// `solver` does not reach. `solver`'s paths name the crate as `games::`.
pub(crate) fn prune(items: &mut Vec<syn::Item>, solver: &syn::File) {
    // Dropping a variant drops its match arms, and with them what only they named: prune
    // again until nothing more goes.
    for _ in 0..8 {
        let mut index = Index::default();
        index.add_module(&[], items);
        index.add_module(&[SOLVER.to_string()], &solver.items);
        index.link();
        let keep = index.reach();
        let ours = |module: &[String]| module.first().map_or(true, |m| m != SOLVER);
        let done = keep.variants.is_empty()
            && keep.fields.is_empty()
            && index
                .defs
                .iter()
                .zip(&keep.defs)
                .all(|(d, k)| *k || !ours(&d.module))
            && index
                .leaves
                .iter()
                .zip(&keep.leaves)
                .all(|(l, k)| *k || !ours(&l.module));
        if done {
            return;
        }
        let mut cursor = Cursor::default();
        rebuild(items, &keep, &mut cursor);
        let mut arms = DropArms {
            dropped: &cursor.dropped,
            fields: &cursor.dropped_fields,
            this: None,
        };
        for item in items.iter_mut() {
            syn::visit_mut::VisitMut::visit_item_mut(&mut arms, item);
        }
    }
}

/// What a piece of code names.
#[derive(Default, Clone)]
struct Refs {
    /// Paths, whole; `Self` is replaced by the path of the impl's type.
    paths: BTreeSet<Vec<String>>,
    /// Names of methods called with `.name(` on a receiver of unknown type.
    methods: BTreeSet<String>,
    /// Methods called on a receiver whose type can be worked out: `board.play(..)` after
    /// `let board = Board::new(..)?`.
    calls: Vec<(Ty, String)>,
    /// Names of macros invoked.
    macros: BTreeSet<String>,
    /// What `str::parse` and `from_str` are asked for: only these can need an impl of
    /// `FromStr`.
    parses: Vec<Parse>,
    /// The paths of match arms' patterns (`Kind::Trailing { found } =>`): they read a
    /// variant but do not construct one.
    arms: Vec<Vec<String>>,
    /// Field names read (`x.f`, `S { f, .. }` in a pattern, `.f` in macro tokens) or
    /// assigned (`x.f = ..`): such a field stays.
    fields: BTreeSet<String>,
    /// Struct literals: the path and, per field, whether its value is a constant (a
    /// literal or an upper-case path) that can go with the field.
    inits: Vec<Init>,
}

/// A struct literal: its path, and per field whether its value is a constant.
type Init = (Vec<String>, Vec<(String, bool)>);

/// The type a `parse` or `from_str` produces.
#[derive(Clone)]
enum Parse {
    /// Not written (`let b: Board = s.parse()?`, `FromStr::from_str`): any type.
    Any,
    /// `parse::<Square>()`, `Square::from_str`.
    Type(Box<syn::Type>),
    /// A generic parameter, with the names of its bounds: any type that meets them.
    Generic(Vec<String>),
}

/// Collects [`Refs`] from syntax.
struct Collect {
    refs: Refs,
    /// The type `Self` stands for, as a path.
    this: Option<Vec<String>>,
    /// The types of local bindings known so far, innermost scope last.
    scopes: Vec<BTreeMap<String, Ty>>,
    /// The generic parameters of the functions around, with their bounds.
    generics: Vec<BTreeMap<String, Vec<String>>>,
}

/// The type of an expression, as far as syntax tells; worked out against the index later
/// ([`Index::eval`]). Anything not understood is `Unknown`, which is always safe: a call on
/// it counts as a call of every method of that name.
#[derive(Clone)]
enum Ty {
    Unknown,
    /// A type of the standard library (a literal, a cast to `usize`).
    Std,
    /// A type as written.
    Type(Box<syn::Type>),
    /// A type named by a path (`Self` replaced): a struct literal.
    Named(Vec<String>),
    /// A field of a value.
    Field(Box<Ty>, String),
    /// What an inherent method returns.
    Method(Box<Ty>, String),
    /// What a function or associated function named by a path returns.
    Call(Vec<String>),
    /// The `T` of an `Option<T>` or `Result<T, _>`: `?`, `.unwrap()`, `.expect(..)`.
    Unwrap(Box<Ty>),
}

impl Collect {
    fn new(this: Option<Vec<String>>) -> Collect {
        Collect {
            refs: Refs::default(),
            this,
            scopes: vec![BTreeMap::new()],
            generics: Vec::new(),
        }
    }

    fn with_generics(&mut self, generics: &syn::Generics, visit: impl FnOnce(&mut Collect)) {
        let mut params: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let bound_names =
            |bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>| {
                bounds
                    .iter()
                    .filter_map(|b| match b {
                        syn::TypeParamBound::Trait(t) => {
                            t.path.segments.last().map(|s| s.ident.to_string())
                        }
                        _ => None,
                    })
                    .collect::<Vec<String>>()
            };
        for param in generics.type_params() {
            params.insert(param.ident.to_string(), bound_names(&param.bounds));
        }
        for predicate in generics.where_clause.iter().flat_map(|w| &w.predicates) {
            if let syn::WherePredicate::Type(t) = predicate {
                if let Some(name) = type_path(&t.bounded_ty).filter(|p| p.len() == 1) {
                    params
                        .entry(name[0].clone())
                        .or_default()
                        .extend(bound_names(&t.bounds));
                }
            }
        }
        self.generics.push(params);
        visit(self);
        self.generics.pop();
    }

    /// The top of a match arm's pattern: its variant paths go to `arms`, the rest is
    /// visited as any pattern.
    fn arm_pattern(&mut self, pat: &syn::Pat) {
        let segments = |p: &syn::Path| self.replace_self(segment_names(p));
        match pat {
            syn::Pat::Or(or) => or.cases.iter().for_each(|case| self.arm_pattern(case)),
            syn::Pat::Path(p) if p.qself.is_none() => {
                let path = segments(&p.path);
                self.refs.arms.push(path);
            }
            syn::Pat::TupleStruct(t) if t.qself.is_none() => {
                let path = segments(&t.path);
                self.refs.arms.push(path);
                t.elems.iter().for_each(|e| self.visit_pat(e));
            }
            syn::Pat::Struct(s) if s.qself.is_none() => {
                let path = segments(&s.path);
                self.refs.arms.push(path);
                s.fields.iter().for_each(|f| self.visit_pat(&f.pat));
            }
            _ => self.visit_pat(pat),
        }
    }

    /// What a `parse::<T>` or `T::from_str` asks for.
    fn parse_of(&self, ty: Option<&syn::Type>) -> Parse {
        let Some(ty) = ty else { return Parse::Any };
        if let Some(path) = type_path(ty).filter(|p| p.len() == 1) {
            if path[0] == "FromStr" {
                return Parse::Any;
            }
            if let Some(bounds) = self.generics.iter().rev().find_map(|g| g.get(&path[0])) {
                return Parse::Generic(bounds.clone());
            }
        }
        Parse::Type(Box::new(ty.clone()))
    }

    fn bind(&mut self, name: String, ty: Ty) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, ty);
        }
    }

    fn scoped(&mut self, visit: impl FnOnce(&mut Collect)) {
        self.scopes.push(BTreeMap::new());
        visit(self);
        self.scopes.pop();
    }

    fn replace_self(&self, mut segments: Vec<String>) -> Vec<String> {
        if segments.first().is_some_and(|s| s == "Self") {
            if let Some(this) = &self.this {
                segments.splice(0..1, this.iter().cloned());
            }
        }
        segments
    }

    /// The type of `expr` as far as syntax and the bindings in scope tell.
    fn ty_of(&self, expr: &syn::Expr) -> Ty {
        use syn::Expr;
        match expr {
            Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
                let name = p.path.segments[0].ident.to_string();
                if name == "self" {
                    return Ty::Type(Box::new(syn::parse_quote!(Self)));
                }
                self.scopes
                    .iter()
                    .rev()
                    .find_map(|scope| scope.get(&name).cloned())
                    .unwrap_or(Ty::Unknown)
            }
            Expr::Field(f) => match &f.member {
                syn::Member::Named(name) => {
                    Ty::Field(Box::new(self.ty_of(&f.base)), name.to_string())
                }
                syn::Member::Unnamed(i) => {
                    Ty::Field(Box::new(self.ty_of(&f.base)), i.index.to_string())
                }
            },
            Expr::MethodCall(m) if m.method == "unwrap" || m.method == "expect" => {
                Ty::Unwrap(Box::new(self.ty_of(&m.receiver)))
            }
            Expr::MethodCall(m) => {
                Ty::Method(Box::new(self.ty_of(&m.receiver)), m.method.to_string())
            }
            Expr::Try(t) => Ty::Unwrap(Box::new(self.ty_of(&t.expr))),
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) if p.qself.is_none() => Ty::Call(
                    self.replace_self(
                        p.path
                            .segments
                            .iter()
                            .map(|s| s.ident.to_string())
                            .collect(),
                    ),
                ),
                _ => Ty::Unknown,
            },
            Expr::Struct(s) if s.qself.is_none() => Ty::Named(
                self.replace_self(
                    s.path
                        .segments
                        .iter()
                        .map(|s| s.ident.to_string())
                        .collect(),
                ),
            ),
            Expr::Reference(r) => self.ty_of(&r.expr),
            Expr::Paren(p) => self.ty_of(&p.expr),
            Expr::Group(g) => self.ty_of(&g.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => self.ty_of(&u.expr),
            Expr::Lit(_) => Ty::Std,
            Expr::Cast(c) => Ty::Type(c.ty.clone()),
            _ => Ty::Unknown,
        }
    }

    fn path(&mut self, segments: Vec<String>) {
        let segments = self.replace_self(segments);
        if !segments.is_empty() {
            self.refs.paths.insert(segments);
        }
    }

    /// Macro arguments: parsed as comma-separated expressions when they are (`format!`,
    /// `write!`, `assert!`), otherwise scanned as tokens; string literals are searched for
    /// inline format arguments either way.
    fn tokens(&mut self, tokens: &TokenStream) {
        use syn::parse::Parser;
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        match parser.parse2(tokens.clone()) {
            Ok(exprs) => exprs.iter().for_each(|e| self.visit_expr(e)),
            Err(_) => self.scan(tokens.clone()),
        }
        self.format_args(tokens.clone());
    }

    /// Token runs `a::b::c` (and single identifiers) as paths, `.m(` as method calls, `m!`
    /// as macro calls.
    fn scan(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: usize, c: char| matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => self.scan(g.stream()),
                TokenTree::Ident(first) => {
                    let after_dot = i >= 1 && punct(i - 1, '.');
                    let mut path = vec![first.to_string()];
                    while punct(i + 1, ':') && punct(i + 2, ':') {
                        match trees.get(i + 3) {
                            Some(TokenTree::Ident(next)) => path.push(next.to_string()),
                            _ => break,
                        }
                        i += 3;
                    }
                    if punct(i + 1, '!') {
                        if let Some(name) = path.last() {
                            self.refs.macros.insert(name.clone());
                        }
                    } else if after_dot && path.len() == 1 {
                        self.refs.fields.insert(path[0].clone());
                        self.refs.methods.insert(path.remove(0));
                    } else {
                        self.path(path);
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// `{name}` and `{name:…}` in string literals: inline format arguments (edition 2021).
    fn format_args(&mut self, tokens: TokenStream) {
        for tree in tokens {
            match tree {
                TokenTree::Group(g) => self.format_args(g.stream()),
                TokenTree::Literal(lit) => {
                    let text = lit.to_string();
                    if !text.ends_with('"') {
                        continue;
                    }
                    for piece in text.split('{').skip(1) {
                        let name: String = piece
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        let after = piece[name.len()..].chars().next();
                        let starts = name.chars().next().is_some_and(|c| !c.is_ascii_digit());
                        if starts && matches!(after, Some('}' | ':')) {
                            self.path(vec![name]);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collect {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let n = path.segments.len();
        if n >= 1 && path.segments[n - 1].ident == "from_str" {
            let parse = if n == 1 {
                Parse::Any
            } else {
                let mut owner = path.clone();
                owner.segments.pop();
                let owner: syn::Type = syn::Type::Path(syn::TypePath {
                    qself: None,
                    path: syn::Path {
                        leading_colon: None,
                        segments: owner
                            .segments
                            .into_pairs()
                            .map(syn::punctuated::Pair::into_value)
                            .collect(),
                    },
                });
                self.parse_of(Some(&owner))
            };
            self.refs.parses.push(parse);
        }
        self.path(segment_names(path));
        syn::visit::visit_path(self, path);
    }

    fn visit_expr_field(&mut self, field: &'ast syn::ExprField) {
        if let syn::Member::Named(name) = &field.member {
            self.refs.fields.insert(name.to_string());
        }
        syn::visit::visit_expr_field(self, field);
    }

    fn visit_field_pat(&mut self, field: &'ast syn::FieldPat) {
        if let syn::Member::Named(name) = &field.member {
            self.refs.fields.insert(name.to_string());
        }
        syn::visit::visit_field_pat(self, field);
    }

    fn visit_expr_struct(&mut self, lit: &'ast syn::ExprStruct) {
        if lit.qself.is_none() {
            let path = self.replace_self(
                lit.path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect(),
            );
            let fields = lit
                .fields
                .iter()
                .filter_map(|f| match &f.member {
                    syn::Member::Named(name) => Some((
                        name.to_string(),
                        f.colon_token.is_some() && is_constant(&f.expr),
                    )),
                    syn::Member::Unnamed(_) => None,
                })
                .collect();
            // `..base` reads every field of the base.
            if lit.rest.is_none() {
                self.refs.inits.push((path, fields));
            } else {
                for f in &lit.fields {
                    if let syn::Member::Named(name) = &f.member {
                        self.refs.fields.insert(name.to_string());
                    }
                }
            }
        }
        syn::visit::visit_expr_struct(self, lit);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        if call.method == "parse" {
            let target = call.turbofish.as_ref().and_then(|t| {
                t.args.iter().find_map(|a| match a {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
            });
            let parse = self.parse_of(target);
            self.refs.parses.push(parse);
        }
        match self.ty_of(&call.receiver) {
            Ty::Unknown => {
                self.refs.methods.insert(call.method.to_string());
            }
            ty => self.refs.calls.push((ty, call.method.to_string())),
        }
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.scoped(|c| syn::visit::visit_block(c, block));
    }

    fn visit_signature(&mut self, sig: &'ast syn::Signature) {
        // Parameters go into the scope of the function, which the body's block nests in.
        syn::visit::visit_signature(self, sig);
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(_) => {
                    self.bind(
                        "self".to_string(),
                        Ty::Type(Box::new(syn::parse_quote!(Self))),
                    );
                }
                syn::FnArg::Typed(t) => {
                    if let syn::Pat::Ident(id) = &*t.pat {
                        self.bind(id.ident.to_string(), Ty::Type(t.ty.clone()));
                    }
                }
            }
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.with_generics(&f.sig.generics, |c| {
            c.scoped(|c| syn::visit::visit_item_fn(c, f));
        });
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.with_generics(&f.sig.generics, |c| {
            c.scoped(|c| syn::visit::visit_impl_item_fn(c, f));
        });
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.with_generics(&f.sig.generics, |c| {
            c.scoped(|c| syn::visit::visit_trait_item_fn(c, f));
        });
    }

    fn visit_expr_closure(&mut self, closure: &'ast syn::ExprClosure) {
        self.scoped(|c| {
            syn::visit::visit_expr_closure(c, closure);
            for input in &closure.inputs {
                if let syn::Pat::Type(t) = input {
                    if let syn::Pat::Ident(id) = &*t.pat {
                        c.bind(id.ident.to_string(), Ty::Type(t.ty.clone()));
                    }
                }
            }
        });
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.scoped(|c| {
            c.arm_pattern(&arm.pat);
            if let Some((_, guard)) = &arm.guard {
                c.visit_expr(guard);
            }
            c.visit_expr(&arm.body);
        });
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.scoped(|c| syn::visit::visit_expr_for_loop(c, f));
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        // The value is typed before its pattern binds, as in `let x = x.next();`.
        let ty = local.init.as_ref().map(|init| self.ty_of(&init.expr));
        syn::visit::visit_local(self, local);
        match &local.pat {
            syn::Pat::Type(t) => {
                if let syn::Pat::Ident(id) = &*t.pat {
                    self.bind(id.ident.to_string(), Ty::Type(t.ty.clone()));
                }
            }
            syn::Pat::Ident(id) if id.subpat.is_none() => {
                self.bind(id.ident.to_string(), ty.unwrap_or(Ty::Unknown));
            }
            _ => {}
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            self.refs.macros.insert(last.ident.to_string());
        }
        self.visit_path(&mac.path);
        self.tokens(&mac.tokens);
    }

    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        // A constant or a unit struct in a pattern reads like a binding. A binding hides
        // any outer one of that name; its type is not known.
        self.path(vec![pat.ident.to_string()]);
        self.bind(pat.ident.to_string(), Ty::Unknown);
        syn::visit::visit_pat_ident(self, pat);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // A `use` inside a function body: its leaves are paths.
        for leaf in leaves(&item.tree) {
            self.path(leaf.target);
        }
    }
}

/// A value that can be dropped with its field: a literal, maybe negated, or an upper-case
/// path (a constant, a unit variant).
fn is_constant(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Lit(_) => true,
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => is_constant(&u.expr),
        syn::Expr::Path(p) => p.path.segments.last().is_some_and(|s| {
            s.ident
                .to_string()
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
        }),
        _ => false,
    }
}

fn collect(this: Option<Vec<String>>, visit: impl FnOnce(&mut Collect)) -> Refs {
    let mut c = Collect::new(this);
    visit(&mut c);
    c.refs
}

/// One name a `use` tree brings into scope.
#[derive(Clone, Debug)]
struct Leaf {
    /// The module the `use` is in.
    module: Vec<String>,
    /// The path it imports (for a glob, the module globbed).
    target: Vec<String>,
    /// The name it binds (empty for a glob).
    name: String,
}

impl Leaf {
    fn is_glob(&self) -> bool {
        self.name.is_empty()
    }
}

/// The leaves of a use tree, in order: `a::{self, B, c::D as E, f::*}` is `a` (as `a`),
/// `a::B`, `a::c::D` (as `E`) and the glob `a::f`.
fn leaves(tree: &syn::UseTree) -> Vec<Leaf> {
    fn walk(tree: &syn::UseTree, prefix: &[String], out: &mut Vec<Leaf>) {
        let leaf = |target: Vec<String>, name: String| Leaf {
            module: Vec::new(),
            target,
            name,
        };
        match tree {
            syn::UseTree::Path(p) => walk(&p.tree, &[prefix, &[p.ident.to_string()]].concat(), out),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| walk(t, prefix, out)),
            syn::UseTree::Name(n) if n.ident == "self" => {
                let name = prefix.last().cloned().unwrap_or_default();
                out.push(leaf(prefix.to_vec(), name));
            }
            syn::UseTree::Name(n) => {
                out.push(leaf(
                    [prefix, &[n.ident.to_string()]].concat(),
                    n.ident.to_string(),
                ));
            }
            syn::UseTree::Rename(r) => {
                let target = if r.ident == "self" {
                    prefix.to_vec()
                } else {
                    [prefix, &[r.ident.to_string()]].concat()
                };
                out.push(leaf(target, r.rename.to_string()));
            }
            syn::UseTree::Glob(_) => out.push(leaf(prefix.to_vec(), String::new())),
        }
    }
    let mut out = Vec::new();
    walk(tree, &[], &mut out);
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    Fn,
    Value,
    /// A struct, enum or union: it has associated items.
    Type,
    Alias,
    Trait,
    Macro,
    /// A `use` item (its leaves are kept one by one).
    Use,
    /// An impl block.
    Impl,
    /// An item of an impl block.
    Assoc,
    /// Anything else: kept.
    Other,
}

struct Def {
    module: Vec<String>,
    name: String,
    what: What,
    refs: Refs,
    /// For an impl: the path of its type and of its trait; for an alias: its type's path.
    self_path: Option<Vec<String>>,
    trait_path: Option<Vec<String>>,
    /// For an impl item: its impl; for an impl: its items.
    owner: Option<usize>,
    members: Vec<usize>,
    /// For a function in an impl: whether it takes `self` (method-call syntax reaches it).
    receiver: bool,
    /// For a `use`: its leaves.
    leaves: Vec<usize>,
    /// For a function: its return type; for a struct: its fields (`0`, `1` for a tuple
    /// struct).
    output: Option<syn::Type>,
    fields: BTreeMap<String, syn::Type>,
    /// For a type: the traits it derives.
    derives: BTreeSet<String>,
    /// For an enum: its variants.
    variants: Vec<String>,
    /// For a trait impl: the type arguments of its trait.
    trait_args: Vec<syn::Type>,
}

impl Def {
    fn new(module: &[String], name: String, what: What, refs: Refs) -> Def {
        Def {
            module: module.to_vec(),
            name,
            what,
            refs,
            self_path: None,
            trait_path: None,
            owner: None,
            members: Vec::new(),
            receiver: false,
            leaves: Vec::new(),
            output: None,
            fields: BTreeMap::new(),
            derives: BTreeSet::new(),
            variants: Vec::new(),
            trait_args: Vec::new(),
        }
    }
}

/// What a name in a module's scope is.
#[derive(Clone, Debug)]
enum Entry {
    Def(usize),
    Module(Vec<String>),
    Leaf(usize),
}

/// What a path resolves to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Hit {
    Def(usize),
    /// An item of a type or trait: `Board::new`, `Color::Black`.
    Assoc(usize, String),
    Module(Vec<String>),
}

#[derive(Default)]
struct Index {
    defs: Vec<Def>,
    leaves: Vec<Leaf>,
    scopes: BTreeMap<Vec<String>, BTreeMap<String, Vec<Entry>>>,
    /// Per impl: the definitions of its type and trait, once resolved.
    self_def: BTreeMap<usize, usize>,
    trait_def: BTreeMap<usize, usize>,
    /// Per alias: the definition of its type.
    alias_of: BTreeMap<usize, usize>,
    /// Per trait impl: the crate's types among its trait's generic arguments (`X` in
    /// `From<X>`): with none of those values around, the impl is not needed.
    trait_args: BTreeMap<usize, Vec<usize>>,
    /// The names of the items of the crate's traits.
    trait_items: BTreeSet<String>,
}

/// Traits of the standard library imported for their methods, and the methods (or macros)
/// that need them in scope.
const TRAIT_METHODS: &[(&str, &[&str])] = &[
    (
        "Write",
        &[
            "write",
            "writeln",
            "write_str",
            "write_char",
            "write_fmt",
            "write_all",
            "flush",
        ],
    ),
    (
        "Read",
        &[
            "read",
            "read_to_end",
            "read_to_string",
            "read_exact",
            "bytes",
        ],
    ),
    ("BufRead", &["lines", "read_line", "split", "fill_buf"]),
    ("FromStr", &["from_str"]),
    ("Hash", &["hash"]),
    (
        "Hasher",
        &[
            "finish",
            "write_u8",
            "write_u32",
            "write_u64",
            "write_usize",
        ],
    ),
    ("Error", &["source"]),
];

impl Index {
    fn push(&mut self, def: Def) -> usize {
        self.defs.push(def);
        self.defs.len() - 1
    }

    fn scope(&mut self, module: &[String], name: &str, entry: Entry) {
        self.scopes
            .entry(module.to_vec())
            .or_default()
            .entry(name.to_string())
            .or_default()
            .push(entry);
    }

    /// Indexes `items` of `module`, in the order [`rebuild`] walks them.
    fn add_module(&mut self, module: &[String], items: &[syn::Item]) {
        self.scopes.entry(module.to_vec()).or_default();
        for item in items {
            self.add_item(module, item);
        }
    }

    fn add_item(&mut self, module: &[String], item: &syn::Item) {
        use syn::Item;
        let named = |name: &syn::Ident, what: What, this: bool, item: &Item| {
            let this = this.then(|| vec![name.to_string()]);
            Def::new(
                module,
                name.to_string(),
                what,
                collect(this, |c| c.visit_item(item)),
            )
        };
        let def = match item {
            Item::Fn(f) => {
                let mut def = named(&f.sig.ident, What::Fn, false, item);
                def.output = output(&f.sig);
                def
            }
            Item::Const(c) => named(&c.ident, What::Value, false, item),
            Item::Static(s) => named(&s.ident, What::Value, false, item),
            Item::Struct(s) => {
                let mut def = named(&s.ident, What::Type, true, item);
                for (i, field) in s.fields.iter().enumerate() {
                    let name = field
                        .ident
                        .as_ref()
                        .map_or(i.to_string(), ToString::to_string);
                    def.fields.insert(name, field.ty.clone());
                }
                def
            }
            Item::Enum(e) => {
                let mut def = named(&e.ident, What::Type, true, item);
                def.variants = e.variants.iter().map(|v| v.ident.to_string()).collect();
                def
            }
            Item::Union(u) => named(&u.ident, What::Type, true, item),
            Item::Trait(t) => {
                for member in &t.items {
                    match member {
                        syn::TraitItem::Fn(f) => self.trait_items.insert(f.sig.ident.to_string()),
                        syn::TraitItem::Const(c) => self.trait_items.insert(c.ident.to_string()),
                        syn::TraitItem::Type(t) => self.trait_items.insert(t.ident.to_string()),
                        _ => false,
                    };
                }
                named(&t.ident, What::Trait, true, item)
            }
            Item::Type(t) => {
                let mut def = named(&t.ident, What::Alias, false, item);
                def.self_path = type_path(&t.ty);
                def
            }
            Item::Macro(m) if m.ident.is_some() => {
                let name = m
                    .ident
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                let refs = collect(None, |c| {
                    c.scan(m.mac.tokens.clone());
                    c.format_args(m.mac.tokens.clone());
                });
                Def::new(module, name, What::Macro, refs)
            }
            Item::Use(u) => {
                let mut def = Def::new(module, String::new(), What::Use, Refs::default());
                for mut leaf in leaves(&u.tree) {
                    leaf.module = module.to_vec();
                    self.leaves.push(leaf.clone());
                    let id = self.leaves.len() - 1;
                    def.leaves.push(id);
                    if !leaf.is_glob() {
                        self.scope(module, &leaf.name, Entry::Leaf(id));
                    } else {
                        self.scope(module, "*", Entry::Leaf(id));
                    }
                }
                self.push(def);
                return;
            }
            Item::Impl(imp) => {
                self.add_impl(module, imp);
                return;
            }
            Item::Mod(m) => {
                let child = [module, &[m.ident.to_string()]].concat();
                self.scope(module, &m.ident.to_string(), Entry::Module(child.clone()));
                if let Some((_, items)) = &m.content {
                    self.add_module(&child, items);
                }
                return;
            }
            _ => Def::new(
                module,
                String::new(),
                What::Other,
                collect(None, |c| c.visit_item(item)),
            ),
        };
        let mut def = def;
        if def.what == What::Type {
            def.derives = derives(item);
        }
        let name = def.name.clone();
        let what = def.what;
        let id = self.push(def);
        if !matches!(what, What::Other) {
            self.scope(module, &name, Entry::Def(id));
        }
    }

    fn add_impl(&mut self, module: &[String], imp: &syn::ItemImpl) {
        let this = type_path(&imp.self_ty);
        let header = collect(this.clone(), |c| {
            c.visit_generics(&imp.generics);
            c.visit_type(&imp.self_ty);
            if let Some((_, path, _)) = &imp.trait_ {
                c.visit_path(path);
            }
        });
        let mut def = Def::new(module, String::new(), What::Impl, header);
        def.self_path = this.clone();
        def.trait_path = imp.trait_.as_ref().map(|(_, path, _)| segment_names(path));
        if let Some((_, path, _)) = &imp.trait_ {
            if let Some(syn::PathArguments::AngleBracketed(args)) =
                path.segments.last().map(|s| &s.arguments)
            {
                def.trait_args = args
                    .args
                    .iter()
                    .filter_map(|a| match a {
                        syn::GenericArgument::Type(t) => Some(t.clone()),
                        _ => None,
                    })
                    .collect();
            }
        }
        let id = self.push(def);
        for item in &imp.items {
            let mut out = None;
            let (name, receiver) = match item {
                syn::ImplItem::Fn(f) => {
                    out = output(&f.sig);
                    (f.sig.ident.to_string(), f.sig.receiver().is_some())
                }
                syn::ImplItem::Const(c) => (c.ident.to_string(), false),
                syn::ImplItem::Type(t) => (t.ident.to_string(), false),
                _ => (String::new(), false),
            };
            let refs = collect(this.clone(), |c| c.visit_impl_item(item));
            let mut member = Def::new(module, name, What::Assoc, refs);
            member.owner = Some(id);
            member.receiver = receiver;
            member.output = out;
            let member = self.push(member);
            self.defs[id].members.push(member);
        }
    }

    /// Resolves each impl's type and trait and each alias's type, once every item is known.
    fn link(&mut self) {
        for id in 0..self.defs.len() {
            let def = &self.defs[id];
            let first_type = |path: &Option<Vec<String>>| {
                let mut trail = Trail::default();
                self.resolve(&def.module, path.as_ref()?, &mut trail, 0)
                    .into_iter()
                    .find_map(|hit| match hit {
                        Hit::Def(d) if matches!(self.defs[d].what, What::Type | What::Trait) => {
                            Some(d)
                        }
                        _ => None,
                    })
            };
            let what = def.what;
            let (this, of_trait) = (first_type(&def.self_path), first_type(&def.trait_path));
            let args: Vec<usize> = def
                .trait_args
                .iter()
                .filter_map(|t| match self.eval_type(&def.module, None, t, 0) {
                    Val::Crate(d) => Some(d),
                    _ => None,
                })
                .collect();
            if !args.is_empty() {
                self.trait_args.insert(id, args);
            }
            match what {
                What::Impl => {
                    if let Some(t) = this {
                        self.self_def.insert(id, t);
                    }
                    if let Some(t) = of_trait {
                        self.trait_def.insert(id, t);
                    }
                }
                What::Alias => {
                    if let Some(t) = this {
                        self.alias_of.insert(id, t);
                    }
                }
                _ => {}
            }
        }
    }

    fn lookup(&self, module: &[String], name: &str, trail: &mut Trail, depth: usize) -> Vec<Hit> {
        let Some(scope) = self.scopes.get(module) else {
            return Vec::new();
        };
        let mut hits = Vec::new();
        for entry in scope.get(name).into_iter().flatten() {
            match entry {
                Entry::Def(d) => hits.push(Hit::Def(*d)),
                Entry::Module(m) => hits.push(Hit::Module(m.clone())),
                Entry::Leaf(l) => {
                    // Marked even when the target is outside the crate (`use std::fmt`).
                    trail.leaves.insert(*l);
                    hits.extend(self.resolve(module, &self.leaves[*l].target, trail, depth + 1));
                }
            }
        }
        if hits.is_empty() {
            for entry in scope.get("*").into_iter().flatten() {
                if let Entry::Leaf(l) = entry {
                    let mut inner = Trail::default();
                    for base in self.resolve(module, &self.leaves[*l].target, &mut inner, depth + 1)
                    {
                        if let Hit::Module(m) = base {
                            let found = self.lookup(&m, name, &mut inner, depth + 1);
                            if !found.is_empty() {
                                trail.leaves.insert(*l);
                                trail.absorb(inner.clone());
                                hits.extend(found);
                            }
                        }
                    }
                }
            }
        }
        hits
    }

    /// What `path`, written in `module`, names inside the crate (nothing for std, local
    /// variables, generic parameters). The `use` leaves passed through and the types
    /// passed on the way (`Board` in `Board::new`) go into `trail`.
    fn resolve(
        &self,
        module: &[String],
        path: &[String],
        trail: &mut Trail,
        depth: usize,
    ) -> Vec<Hit> {
        if depth > 24 || path.is_empty() {
            return Vec::new();
        }
        let supers = path.iter().take_while(|s| *s == "super").count();
        let (mut current, rest) = match path[0].as_str() {
            "crate" => (vec![Hit::Module(Vec::new())], &path[1..]),
            "games" if module.first().is_some_and(|m| m == SOLVER) => {
                (vec![Hit::Module(Vec::new())], &path[1..])
            }
            "self" => (vec![Hit::Module(module.to_vec())], &path[1..]),
            "super" => match module.len().checked_sub(supers) {
                Some(base) => (vec![Hit::Module(module[..base].to_vec())], &path[supers..]),
                None => return Vec::new(),
            },
            name => (self.lookup(module, name, trail, depth), &path[1..]),
        };
        for segment in rest {
            let mut next = Vec::new();
            for hit in &current {
                match hit {
                    Hit::Module(m) => next.extend(self.lookup(m, segment, trail, depth)),
                    Hit::Def(d) => {
                        let d = self.alias_of.get(d).copied().unwrap_or(*d);
                        if matches!(self.defs[d].what, What::Type | What::Trait) {
                            trail.hits.insert(Hit::Def(d));
                            next.push(Hit::Assoc(d, segment.clone()));
                        }
                    }
                    Hit::Assoc(..) => {}
                }
            }
            for hit in &current {
                if let Hit::Def(_) = hit {
                    trail.hits.insert(hit.clone());
                }
            }
            current = next;
        }
        current
    }

    /// The type `Self` stands for in a definition's code.
    fn this_of(&self, id: usize) -> Option<usize> {
        let def = &self.defs[id];
        match def.what {
            What::Type | What::Trait => Some(id),
            What::Assoc => def.owner.and_then(|o| self.self_def.get(&o).copied()),
            What::Impl => self.self_def.get(&id).copied(),
            _ => None,
        }
    }

    /// Whether an impl or trait item of the crate is called `name`.
    fn names_item(&self, name: &str) -> bool {
        self.trait_items.contains(name)
            || self
                .defs
                .iter()
                .any(|d| d.what == What::Assoc && d.name == name)
    }

    /// The inherent associated function `name` of type `ty`.
    fn inherent(&self, ty: usize, name: &str) -> Option<usize> {
        self.defs.iter().position(|d| {
            d.what == What::Assoc
                && d.name == name
                && d.owner.is_some_and(|o| {
                    self.defs[o].trait_path.is_none() && self.self_def.get(&o) == Some(&ty)
                })
        })
    }

    fn eval_type<'a>(
        &self,
        module: &'a [String],
        this: Option<usize>,
        ty: &syn::Type,
        depth: usize,
    ) -> Val<'a> {
        if depth > 16 {
            return Val::Unknown;
        }
        match ty {
            syn::Type::Reference(r) => self.eval_type(module, this, &r.elem, depth + 1),
            syn::Type::Paren(p) => self.eval_type(module, this, &p.elem, depth + 1),
            syn::Type::Group(g) => self.eval_type(module, this, &g.elem, depth + 1),
            syn::Type::Path(p) if p.qself.is_none() => {
                let segments: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                if segments == ["Self"] {
                    return this.map_or(Val::Unknown, Val::Crate);
                }
                let Some(last) = p.path.segments.last() else {
                    return Val::Unknown;
                };
                let args: Vec<syn::Type> = match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .filter_map(|arg| match arg {
                            syn::GenericArgument::Type(t) => Some(t.clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let name = last.ident.to_string();
                // Method calls go through these to what they point to.
                if matches!(name.as_str(), "Box" | "Rc" | "Arc") {
                    return match args.first() {
                        Some(inner) => self.eval_type(module, this, inner, depth + 1),
                        None => Val::Unknown,
                    };
                }
                match self.named(module, &segments) {
                    Val::Unknown if segments.len() > 1 || STD_TYPES.contains(&name.as_str()) => {
                        Val::Std(module, this, args, name)
                    }
                    val => val,
                }
            }
            syn::Type::Tuple(_)
            | syn::Type::Slice(_)
            | syn::Type::Array(_)
            | syn::Type::ImplTrait(_) => Val::Std(module, this, Vec::new(), String::new()),
            _ => Val::Unknown,
        }
    }

    /// The crate's type a path names, if it names one.
    fn named<'a>(&self, module: &[String], path: &[String]) -> Val<'a> {
        let mut trail = Trail::default();
        let hit = self
            .resolve(module, path, &mut trail, 0)
            .into_iter()
            .find_map(|hit| match hit {
                Hit::Def(d) => {
                    let d = self.alias_of.get(&d).copied().unwrap_or(d);
                    matches!(self.defs[d].what, What::Type | What::Trait).then_some(d)
                }
                _ => None,
            });
        hit.map_or(Val::Unknown, Val::Crate)
    }

    fn eval<'a>(
        &'a self,
        module: &'a [String],
        this: Option<usize>,
        ty: &Ty,
        depth: usize,
    ) -> Val<'a> {
        if depth > 16 {
            return Val::Unknown;
        }
        let returns = |f: usize| -> Val<'a> {
            let def = &self.defs[f];
            match &def.output {
                Some(out) => self.eval_type(&def.module, self.this_of(f), out, depth + 1),
                None => Val::Std(&def.module, None, Vec::new(), String::new()),
            }
        };
        match ty {
            Ty::Unknown => Val::Unknown,
            Ty::Std => Val::Std(module, this, Vec::new(), String::new()),
            Ty::Type(t) => self.eval_type(module, this, t, depth + 1),
            Ty::Named(path) => match self.named(module, path) {
                Val::Unknown if path.len() > 1 => Val::Std(module, this, Vec::new(), String::new()),
                val => val,
            },
            Ty::Field(of, field) => match self.eval(module, this, of, depth + 1) {
                Val::Crate(d) => match self.defs[d].fields.get(field) {
                    Some(t) => self.eval_type(&self.defs[d].module, Some(d), t, depth + 1),
                    None => Val::Unknown,
                },
                _ => Val::Unknown,
            },
            Ty::Method(of, method) => match self.eval(module, this, of, depth + 1) {
                Val::Crate(d) if method == "clone" => Val::Crate(d),
                Val::Crate(d) => self.inherent(d, method).map_or(Val::Unknown, returns),
                Val::Std(m, this, args, name)
                    if (name == "Option" || name == "Result")
                        && KEEP_OK.contains(&method.as_str()) =>
                {
                    Val::Std(m, this, args, name)
                }
                Val::Std(m, this, _, name) => {
                    let method = method.as_str();
                    if PRIMITIVES.contains(&name.as_str()) && !LEAVE_PRIMITIVES.contains(&method) {
                        // Text and numbers give text, numbers and iterators over them.
                        Val::Std(m, this, Vec::new(), PRIMITIVE.to_string())
                    } else if STD_RESULTS.contains(&method) {
                        Val::Std(m, this, Vec::new(), String::new())
                    } else {
                        Val::Unknown
                    }
                }
                // An iterator adaptor or size that no item of the crate is named after:
                // std's, whatever the receiver.
                Val::Unknown
                    if STD_RESULTS.contains(&method.as_str()) && !self.names_item(method) =>
                {
                    Val::Std(module, this, Vec::new(), String::new())
                }
                Val::Unknown => Val::Unknown,
            },
            Ty::Call(path) => {
                let mut trail = Trail::default();
                let hits = self.resolve(module, path, &mut trail, 0);
                match hits.first() {
                    Some(Hit::Assoc(d, name)) => {
                        self.inherent(*d, name).map_or(Val::Unknown, returns)
                    }
                    Some(Hit::Def(f)) if self.defs[*f].what == What::Fn => returns(*f),
                    // A tuple struct's constructor.
                    Some(Hit::Def(t)) if self.defs[*t].what == What::Type => Val::Crate(*t),
                    _ => Val::Unknown,
                }
            }
            Ty::Unwrap(inner) => match self.eval(module, this, inner, depth + 1) {
                Val::Std(m, this, _, name) if name == PRIMITIVE => {
                    Val::Std(m, this, Vec::new(), name)
                }
                Val::Std(m, this, args, name) if name == "Option" || name == "Result" => {
                    match args.first() {
                        Some(t) => self.eval_type(m, this, t, depth + 1),
                        None => Val::Unknown,
                    }
                }
                _ => Val::Unknown,
            },
        }
    }

    /// The definitions and `use` leaves reachable from the solver.
    fn reach(&self) -> Keep {
        let mut state = Reach::default();
        let mut kept = vec![false; self.defs.len()];
        for (id, def) in self.defs.iter().enumerate() {
            if def.module.first().is_some_and(|m| m == SOLVER) {
                kept[id] = true;
                state.process(self, id);
            }
        }
        loop {
            let mut changed = false;
            for id in 0..self.defs.len() {
                if !kept[id] && self.wanted(id, &kept, &state) {
                    kept[id] = true;
                    state.process(self, id);
                    if let Some(owner) = self.defs[id].owner {
                        if !kept[owner] {
                            kept[owner] = true;
                            state.process(self, owner);
                        }
                    }
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Trait imports from std that the module's kept code needs for method calls.
        let mut calls: BTreeMap<&[String], BTreeSet<&str>> = BTreeMap::new();
        for (id, def) in self.defs.iter().enumerate() {
            if kept[id] {
                let names = calls.entry(&def.module).or_default();
                names.extend(def.refs.methods.iter().map(String::as_str));
                names.extend(def.refs.calls.iter().map(|(_, m)| m.as_str()));
                names.extend(def.refs.macros.iter().map(String::as_str));
            }
        }
        let mut leaves = state.leaves;
        for (id, leaf) in self.leaves.iter().enumerate() {
            let std = leaf
                .target
                .first()
                .is_some_and(|s| s == "std" || s == "core");
            let needed = TRAIT_METHODS.iter().any(|(name, methods)| {
                *name == leaf.name
                    && methods.iter().any(|m| {
                        calls
                            .get(leaf.module.as_slice())
                            .is_some_and(|c| c.contains(m))
                    })
            });
            if std && needed {
                leaves.insert(id);
            }
        }
        // Variants of kept enums that kept code never constructs (a match arm on one
        // is not a construction; any other mention is).
        let mut variants = BTreeMap::new();
        for (id, def) in self.defs.iter().enumerate() {
            let unused: BTreeSet<String> = def
                .variants
                .iter()
                .filter(|v| kept[id] && !state.hits.contains(&Hit::Assoc(id, (*v).clone())))
                .cloned()
                .collect();
            // An enum none of whose variants is built stays whole: an empty enum changes
            // what a `match` on a reference to it means.
            if !unused.is_empty() && unused.len() < def.variants.len() {
                variants.insert(id, unused);
            }
        }
        // Fields of kept structs that kept code never reads or assigns, and sets only to
        // constants (`komi: 0.0` where nothing needs the komi).
        let mut fields = BTreeMap::new();
        for (id, def) in self.defs.iter().enumerate() {
            if !kept[id] || def.what != What::Type {
                continue;
            }
            let unused: BTreeSet<String> = def
                .fields
                .keys()
                .filter(|f| !f.chars().all(|c| c.is_ascii_digit()) && !state.fields.contains(*f))
                .filter(|f| {
                    state.inits.iter().all(|(ty, name, constant)| {
                        // A literal of another struct, or of one that is not resolved
                        // and named differently, does not set this field.
                        let other = match ty {
                            Some(t) => *t != id,
                            None => *name != def.name,
                        };
                        other || constant.contains(*f)
                    })
                })
                .cloned()
                .collect();
            if !unused.is_empty() {
                fields.insert(id, unused);
            }
        }
        Keep {
            defs: kept,
            leaves: (0..self.leaves.len())
                .map(|l| leaves.contains(&l))
                .collect(),
            variants,
            fields,
        }
    }

    /// Whether a definition not yet kept is needed, given what is kept so far.
    fn wanted(&self, id: usize, kept: &[bool], state: &Reach) -> bool {
        let def = &self.defs[id];
        match def.what {
            What::Fn | What::Value | What::Type | What::Alias | What::Trait => {
                state.hits.contains(&Hit::Def(id))
            }
            What::Macro => state.hits.contains(&Hit::Def(id)) || state.macros.contains(&def.name),
            What::Other => true,
            What::Use => false,
            What::Impl => {
                // A trait impl: its type and its trait are kept (std traits count as kept);
                // an inherent impl is kept through its items. `FromStr` for a type is
                // needed only where text is parsed into that type.
                let Some(trait_path) = &def.trait_path else {
                    return false;
                };
                let this = self.self_def.get(&id).copied();
                let std_from_str = trait_path.last().is_some_and(|t| t == "FromStr")
                    && !self.trait_def.contains_key(&id);
                this.map_or(true, |t| kept[t])
                    && self.trait_def.get(&id).map_or(true, |t| kept[*t])
                    && self
                        .trait_args
                        .get(&id)
                        .map_or(true, |args| args.iter().all(|a| kept[*a]))
                    && (!std_from_str || this.map_or(true, |t| self.parsed_into(t, state)))
            }
            What::Assoc => {
                let Some(owner) = def.owner else { return true };
                if self.defs[owner].trait_path.is_some() {
                    return kept[owner];
                }
                match self.self_def.get(&owner) {
                    None => true,
                    Some(t) => {
                        kept[*t]
                            && (state.hits.contains(&Hit::Assoc(*t, def.name.clone()))
                                || (def.receiver && state.methods.contains(&def.name)))
                    }
                }
            }
        }
    }
}

/// The traits an item derives.
fn derives(item: &syn::Item) -> BTreeSet<String> {
    let attrs = match item {
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        syn::Item::Union(u) => &u.attrs,
        _ => return BTreeSet::new(),
    };
    let mut out = BTreeSet::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                out.insert(last.ident.to_string());
            }
            Ok(())
        });
    }
    out
}

fn output(sig: &syn::Signature) -> Option<syn::Type> {
    match &sig.output {
        syn::ReturnType::Type(_, ty) => Some((**ty).clone()),
        syn::ReturnType::Default => None,
    }
}

/// Types of the standard library that a single-segment path may name; a name that is
/// neither one of these nor a type of the crate may be a generic parameter, and stays
/// unknown.
const STD_TYPES: &[&str] = &[
    "str", "String", "Vec", "Option", "Result", "bool", "char", "u8", "u16", "u32", "u64", "u128",
    "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "HashMap", "HashSet",
    "BTreeMap", "BTreeSet", "VecDeque", "Duration", "Instant",
];

/// Std types whose methods return only std types (text, numbers, their iterators and
/// options), but for the methods in [`LEAVE_PRIMITIVES`].
const PRIMITIVES: &[&str] = &[
    "str", "String", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize", "f32", "f64", PRIMITIVE,
];
const PRIMITIVE: &str = " primitive";
/// Methods that may turn text or numbers into anything: closures, conversions, parsing.
const LEAVE_PRIMITIVES: &[&str] = &[
    "parse",
    "into",
    "try_into",
    "collect",
    "map",
    "filter_map",
    "flat_map",
    "fold",
    "scan",
    "and_then",
    "map_or",
    "map_or_else",
    "then",
    "then_some",
    "zip",
    "sum",
    "product",
    "unwrap_or_else",
    "map_while",
];
/// Methods of `Option` and `Result` that keep the type inside.
const KEEP_OK: &[&str] = &[
    "map_err",
    "ok_or",
    "ok_or_else",
    "ok",
    "or",
    "or_else",
    "as_ref",
    "as_mut",
    "cloned",
    "copied",
    "take",
    "filter",
];

/// Methods of any std type whose result is std's: sizes, tests, and iterator adaptors over
/// the same items.
const STD_RESULTS: &[&str] = &[
    "len",
    "is_empty",
    "count",
    "contains",
    "any",
    "all",
    "position",
    "starts_with",
    "ends_with",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "iter",
    "iter_mut",
    "filter",
    "enumerate",
    "skip",
    "take",
    "rev",
    "step_by",
    "chain",
    "windows",
    "chunks",
    "chars",
    "bytes",
    "char_indices",
    "lines",
    "split_whitespace",
];

/// A type worked out: one of the crate's, one of std's (with its generic arguments, written
/// in `module` where `Self` is `this`), or unknown.
enum Val<'a> {
    Crate(usize),
    Std(&'a [String], Option<usize>, Vec<syn::Type>, String),
    Unknown,
}

impl Index {
    /// Whether kept code may parse text into the type `ty`.
    fn parsed_into(&self, ty: usize, state: &Reach) -> bool {
        state.parses.iter().any(|(at, parse)| match parse {
            Parse::Any => true,
            // A type not worked out (an impl's generic parameter) may be this one.
            Parse::Type(t) => match self.eval_type(&self.defs[*at].module, self.this_of(*at), t, 0)
            {
                Val::Crate(d) => d == ty,
                Val::Unknown => true,
                Val::Std(..) => false,
            },
            Parse::Generic(bounds) => bounds.iter().all(|b| self.implements(ty, b)),
        })
    }

    /// Whether the type `ty` implements the trait named `name` (derived, implemented in the
    /// crate, or an auto trait).
    fn implements(&self, ty: usize, name: &str) -> bool {
        matches!(name, "FromStr" | "Sized" | "Send" | "Sync" | "Unpin")
            || self.defs[ty].derives.contains(name)
            || self.defs.iter().enumerate().any(|(id, d)| {
                d.what == What::Impl
                    && self.self_def.get(&id) == Some(&ty)
                    && d.trait_path
                        .as_ref()
                        .and_then(|p| p.last())
                        .is_some_and(|t| t == name)
            })
    }
}

/// The path of a type written as a path (`Board`, `Grid<T>`, `&Board`); `None` otherwise.
fn type_path(ty: &syn::Type) -> Option<Vec<String>> {
    match ty {
        syn::Type::Path(p) => Some(
            p.path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect(),
        ),
        syn::Type::Reference(r) => type_path(&r.elem),
        syn::Type::Paren(p) => type_path(&p.elem),
        _ => None,
    }
}

/// What one resolution passed through.
#[derive(Default, Clone)]
struct Trail {
    leaves: BTreeSet<usize>,
    hits: BTreeSet<Hit>,
}

impl Trail {
    fn absorb(&mut self, other: Trail) {
        self.leaves.extend(other.leaves);
        self.hits.extend(other.hits);
    }
}

/// What kept code names so far.
#[derive(Default)]
struct Reach {
    hits: BTreeSet<Hit>,
    leaves: BTreeSet<usize>,
    methods: BTreeSet<String>,
    macros: BTreeSet<String>,
    /// The `parse` targets of kept code, with the definition they are written in.
    parses: Vec<(usize, Parse)>,
    fields: BTreeSet<String>,
    /// Struct literals of kept code: the struct, and its fields with constant values.
    inits: Vec<(Option<usize>, String, BTreeSet<String>)>,
}

impl Reach {
    fn process(&mut self, index: &Index, id: usize) {
        let def = &index.defs[id];
        for path in &def.refs.paths {
            let mut trail = Trail::default();
            let hits = index.resolve(&def.module, path, &mut trail, 0);
            self.leaves.extend(trail.leaves);
            self.hits.extend(trail.hits);
            for hit in hits {
                if let Hit::Assoc(t, name) = &hit {
                    // `Alias::new` reaches the aliased type's `new`.
                    if let Some(of) = index.alias_of.get(t) {
                        self.hits.insert(Hit::Assoc(*of, name.clone()));
                    }
                }
                self.hits.insert(hit);
            }
        }
        // A match arm names the enum, not the construction of its variant.
        for path in &def.refs.arms {
            let mut trail = Trail::default();
            let hits = index.resolve(&def.module, path, &mut trail, 0);
            self.leaves.extend(trail.leaves);
            self.hits.extend(trail.hits);
            self.hits
                .extend(hits.into_iter().filter(|h| !matches!(h, Hit::Assoc(..))));
        }
        self.methods.extend(def.refs.methods.iter().cloned());
        let this = index.this_of(id);
        for (ty, method) in &def.refs.calls {
            match index.eval(&def.module, this, ty, 0) {
                Val::Crate(d) => {
                    self.hits.insert(Hit::Assoc(d, method.clone()));
                }
                // A method of std's: no inherent method of the crate.
                Val::Std(..) => {}
                Val::Unknown => {
                    if std::env::var_os("BUNDLER_TRACE").is_some() {
                        eprintln!("{:?} {}: unknown {method}", def.module, def.name);
                    }
                    self.methods.insert(method.clone());
                }
            }
        }
        self.macros.extend(def.refs.macros.iter().cloned());
        self.parses
            .extend(def.refs.parses.iter().map(|p| (id, p.clone())));
        self.fields.extend(def.refs.fields.iter().cloned());
        for (path, fields) in &def.refs.inits {
            let ty = match index.named(&def.module, path) {
                Val::Crate(d) => Some(d),
                _ => None,
            };
            let constant = fields
                .iter()
                .filter(|(_, c)| *c)
                .map(|(f, _)| f.clone())
                .collect();
            let name = path.last().cloned().unwrap_or_default();
            self.inits.push((ty, name, constant));
        }
    }
}

/// The outcome: per definition and per `use` leaf, in index order.
struct Keep {
    defs: Vec<bool>,
    leaves: Vec<bool>,
    /// Per enum: the variants to drop.
    variants: BTreeMap<usize, BTreeSet<String>>,
    /// Per struct: the fields to drop.
    fields: BTreeMap<usize, BTreeSet<String>>,
}

/// The position in index order while rebuilding.
#[derive(Default)]
struct Cursor {
    def: usize,
    leaf: usize,
    /// Per enum name: the variants dropped.
    dropped: BTreeMap<String, BTreeSet<String>>,
    /// Per struct name: the fields dropped.
    dropped_fields: BTreeMap<String, BTreeSet<String>>,
}

/// Removes the match arms (and or-pattern alternatives) of dropped variants, and the
/// values of dropped fields from struct literals.
struct DropArms<'a> {
    dropped: &'a BTreeMap<String, BTreeSet<String>>,
    fields: &'a BTreeMap<String, BTreeSet<String>>,
    /// The name of the type of the impl around, for `Self::Variant`.
    this: Option<String>,
}

impl DropArms<'_> {
    fn is_dropped(&self, path: &syn::Path) -> bool {
        let names: Vec<String> = segment_names(path);
        let [.., owner, variant] = names.as_slice() else {
            return false;
        };
        let owner = if owner == "Self" {
            self.this.as_deref().unwrap_or("")
        } else {
            owner
        };
        self.dropped.get(owner).is_some_and(|v| v.contains(variant))
    }

    /// The pattern without its dropped alternatives; `None` if nothing is left.
    fn keep(&self, pat: &syn::Pat) -> Option<syn::Pat> {
        match pat {
            syn::Pat::Or(or) => {
                let cases: Vec<syn::Pat> = or.cases.iter().filter_map(|c| self.keep(c)).collect();
                match cases.len() {
                    0 => None,
                    1 => cases.into_iter().next(),
                    _ => {
                        let mut or = or.clone();
                        or.cases = cases.into_iter().collect();
                        Some(syn::Pat::Or(or))
                    }
                }
            }
            syn::Pat::Path(p) if self.is_dropped(&p.path) => None,
            syn::Pat::TupleStruct(t) if self.is_dropped(&t.path) => None,
            syn::Pat::Struct(s) if self.is_dropped(&s.path) => None,
            other => Some(other.clone()),
        }
    }
}

impl syn::visit_mut::VisitMut for DropArms<'_> {
    fn visit_item_impl_mut(&mut self, imp: &mut syn::ItemImpl) {
        let outer = self.this.take();
        self.this = type_path(&imp.self_ty).and_then(|p| p.last().cloned());
        syn::visit_mut::visit_item_impl_mut(self, imp);
        self.this = outer;
    }

    fn visit_expr_struct_mut(&mut self, lit: &mut syn::ExprStruct) {
        let name = lit
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let name = if name == "Self" {
            self.this.clone().unwrap_or_default()
        } else {
            name
        };
        if let Some(unused) = self.fields.get(&name) {
            lit.fields = std::mem::take(&mut lit.fields)
                .into_iter()
                .filter(|f| !matches!(&f.member, syn::Member::Named(n) if unused.contains(&n.to_string())))
                .collect();
        }
        syn::visit_mut::visit_expr_struct_mut(self, lit);
    }

    fn visit_expr_match_mut(&mut self, m: &mut syn::ExprMatch) {
        m.arms = std::mem::take(&mut m.arms)
            .into_iter()
            .filter_map(|mut arm| {
                arm.pat = self.keep(&arm.pat)?;
                Some(arm)
            })
            .collect();
        syn::visit_mut::visit_expr_match_mut(self, m);
    }
}

/// Drops from `items` what `keep` does not keep, walking in [`Index::add_module`]'s order;
/// an impl left with no items, a `use` with no leaves and a module with no items go too.
fn rebuild(items: &mut Vec<syn::Item>, keep: &Keep, at: &mut Cursor) {
    let old = std::mem::take(items);
    for mut item in old {
        let kept = match &mut item {
            syn::Item::Mod(m) => match &mut m.content {
                Some((_, inner)) => {
                    rebuild(inner, keep, at);
                    !inner.is_empty()
                }
                None => true,
            },
            syn::Item::Use(u) => {
                at.def += 1;
                let start = at.leaf;
                let count = leaves(&u.tree).len();
                at.leaf += count;
                let flags = &keep.leaves[start..start + count];
                match retain_leaves(&u.tree, &mut flags.iter().copied()) {
                    Some(tree) => {
                        u.tree = tree;
                        true
                    }
                    None => false,
                }
            }
            syn::Item::Impl(imp) => {
                let own = keep.defs[at.def];
                at.def += 1;
                let mut i = 0;
                imp.items.retain(|_| {
                    let k = keep.defs[at.def + i];
                    i += 1;
                    k
                });
                at.def += i;
                own && (imp.trait_.is_some() || !imp.items.is_empty())
            }
            syn::Item::Struct(st) => {
                let k = keep.defs[at.def];
                if let (Some(unused), syn::Fields::Named(named)) =
                    (keep.fields.get(&at.def), &mut st.fields)
                {
                    named.named = std::mem::take(&mut named.named)
                        .into_iter()
                        .filter(|f| {
                            !f.ident
                                .as_ref()
                                .is_some_and(|i| unused.contains(&i.to_string()))
                        })
                        .collect();
                    at.dropped_fields
                        .insert(st.ident.to_string(), unused.clone());
                }
                at.def += 1;
                k
            }
            syn::Item::Enum(e) => {
                let k = keep.defs[at.def];
                if let Some(unused) = keep.variants.get(&at.def) {
                    e.variants = std::mem::take(&mut e.variants)
                        .into_iter()
                        .filter(|v| !unused.contains(&v.ident.to_string()))
                        .collect();
                    at.dropped.insert(e.ident.to_string(), unused.clone());
                }
                at.def += 1;
                k
            }
            _ => {
                let k = keep.defs[at.def];
                at.def += 1;
                k
            }
        };
        if kept {
            items.push(item);
        }
    }
}

/// `tree` with only the leaves whose flags (in [`leaves`] order) are set; `None` if none is.
fn retain_leaves(
    tree: &syn::UseTree,
    flags: &mut impl Iterator<Item = bool>,
) -> Option<syn::UseTree> {
    match tree {
        syn::UseTree::Path(p) => {
            let inner = retain_leaves(&p.tree, flags)?;
            let mut p = p.clone();
            *p.tree = inner;
            Some(syn::UseTree::Path(p))
        }
        syn::UseTree::Group(g) => {
            let kept: Vec<syn::UseTree> = g
                .items
                .iter()
                .filter_map(|t| retain_leaves(t, flags))
                .collect();
            match kept.len() {
                0 => None,
                1 if !matches!(&kept[0], syn::UseTree::Name(n) if n.ident == "self") => {
                    kept.into_iter().next()
                }
                _ => {
                    let mut g = g.clone();
                    g.items = kept.into_iter().collect();
                    Some(syn::UseTree::Group(g))
                }
            }
        }
        _ => flags.next().unwrap_or(true).then(|| tree.clone()),
    }
}
