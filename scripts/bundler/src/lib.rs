//! Single-file builds of the workspace's solvers for online judges.
//!
//! A judge compiles one file with plain `rustc` and no external crates. [`bundle`] turns
//! `solvers/src/bin/<problem>.rs` into such a file:
//!
//! - the solver's own items, with its `games::…` and `proconio::…` paths rewritten to the
//!   inlined modules (`crate::games::…`);
//! - `mod games { … }`, private: only the modules of the shared crate that the solver
//!   reaches, following `games::` paths from the solver and `crate::` paths between modules
//!   (`super::` stays inside a module and needs nothing), and in them only the items it
//!   reaches (`prune`): the file compiles with no dead-code warning and no `allow`;
//! - `pub mod proconio { … }` when the solver uses proconio, whole (its unused items
//!   allowed), read from the package source
//!   Cargo resolved (`cargo metadata --offline`), with `crate::` and `$crate::` rewritten so
//!   that `input!` and its markers work from inside the module (its `#[macro_export]` macros
//!   stay at the crate root, where judges' code expects them);
//! - any other crate is refused with an error naming it.
//!
//! `#[cfg(test)]` items, items behind a Cargo feature, and doc comments are left out; a header
//! names the inlined crates and their licences. The output depends only on the sources: the
//! same input gives a byte-identical file.

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

mod prune;

/// A library crate that can be inlined.
#[derive(Clone, Debug)]
pub struct Crate {
    /// Package name (also its name in paths).
    pub name: String,
    /// Package version.
    pub version: String,
    /// SPDX licence expression.
    pub license: String,
    /// Authors, for the header.
    pub authors: Vec<String>,
    /// The library's root file (`src/lib.rs`).
    pub lib: PathBuf,
}

/// What the bundler needs to know about the workspace, from `cargo metadata`.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// The workspace root.
    pub root: PathBuf,
    /// The shared crate.
    pub games: Crate,
    /// proconio as Cargo resolved it, if it is in the dependency graph.
    pub proconio: Option<Crate>,
    /// Names of the solvers package's dependencies: a solver may only use `games` and
    /// `proconio` of these.
    pub solver_deps: Vec<String>,
}

/// A single-file build of one solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// The problem (the solver's file stem).
    pub problem: String,
    /// The file.
    pub source: String,
    /// The inlined crates, as `name version (licence)`.
    pub inlined: Vec<String>,
    /// The size of the file with the reached modules inlined whole (before item pruning).
    pub unpruned: usize,
}

/// Why a solver cannot be bundled.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read.
    Io(PathBuf, std::io::Error),
    /// A file is not valid Rust.
    Parse(PathBuf, syn::Error),
    /// `cargo metadata` failed or did not describe the workspace as expected.
    Metadata(String),
    /// The solver uses a crate that cannot ride along in one file.
    ForeignCrate {
        /// The solver.
        solver: PathBuf,
        /// The crate.
        krate: String,
    },
    /// A construct the bundler does not handle.
    Unsupported(PathBuf, String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Error::Parse(path, e) => {
                let at = e.span().start();
                write!(f, "{}:{}:{}: {e}", path.display(), at.line, at.column + 1)
            }
            Error::Metadata(why) => write!(f, "cargo metadata: {why}"),
            Error::ForeignCrate { solver, krate } => write!(
                f,
                "{} uses the crate `{krate}`, which cannot be bundled: a judge compiles one file \
                 with no external crates, and only `games` and `proconio` are inlined",
                solver.display()
            ),
            Error::Unsupported(path, what) => write!(f, "{}: {what}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

impl Workspace {
    /// Reads the workspace at `root` with `cargo metadata`: first `--offline`, from Cargo's
    /// package cache alone; if the cache lacks a package of the lock file (a fresh machine
    /// that has not built everything yet), again with `--locked`, letting Cargo fetch just
    /// those from its registry. Nothing is re-resolved either way.
    ///
    /// # Errors
    ///
    /// [`Error::Metadata`] when Cargo fails or the `games` or `solvers` package is missing.
    pub fn load(root: &Path) -> Result<Workspace, Error> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let metadata = |mode: &str| {
            std::process::Command::new(&cargo)
                .args(["metadata", "--format-version", "1", mode, "--manifest-path"])
                .arg(root.join("Cargo.toml"))
                .output()
                .map_err(|e| Error::Metadata(e.to_string()))
        };
        let mut out = metadata("--offline")?;
        if !out.status.success() {
            out = metadata("--locked")?;
        }
        if !out.status.success() {
            return Err(Error::Metadata(
                String::from_utf8_lossy(&out.stderr).trim().to_string(),
            ));
        }
        let json: serde_json::Value =
            serde_json::from_slice(&out.stdout).map_err(|e| Error::Metadata(e.to_string()))?;
        let packages = json["packages"]
            .as_array()
            .ok_or_else(|| Error::Metadata("no packages".to_string()))?;
        let find = |name: &str| packages.iter().find(|p| p["name"] == name);
        let as_crate = |p: &serde_json::Value| -> Option<Crate> {
            let lib = p["targets"].as_array()?.iter().find(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "lib"))
            })?;
            Some(Crate {
                name: p["name"].as_str()?.to_string(),
                version: p["version"].as_str()?.to_string(),
                license: p["license"]
                    .as_str()
                    .unwrap_or("unknown licence")
                    .to_string(),
                authors: p["authors"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
                lib: PathBuf::from(lib["src_path"].as_str()?),
            })
        };
        let games = find("games")
            .and_then(as_crate)
            .ok_or_else(|| Error::Metadata("no library package `games`".to_string()))?;
        let solvers =
            find("solvers").ok_or_else(|| Error::Metadata("no package `solvers`".to_string()))?;
        let solver_deps = solvers["dependencies"]
            .as_array()
            .map(|deps| {
                deps.iter()
                    .filter(|d| d["kind"].is_null())
                    .filter_map(|d| d["name"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Workspace {
            root: root.to_path_buf(),
            games,
            proconio: find("proconio").and_then(as_crate),
            solver_deps,
        })
    }
}

fn read(path: &Path) -> Result<syn::File, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io(path.to_path_buf(), e))?;
    syn::parse_file(&text).map_err(|e| Error::Parse(path.to_path_buf(), e))
}

/// Bundles the solver at `solver` (a file under `solvers/src/bin/`).
///
/// # Errors
///
/// [`Error`] when a file cannot be read or parsed, the solver uses a crate other than
/// `games` and `proconio`, or proconio is needed but not resolved.
pub fn bundle(ws: &Workspace, solver: &Path) -> Result<Bundle, Error> {
    let problem = solver
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| Error::Unsupported(solver.to_path_buf(), "no file name".to_string()))?
        .to_string();
    let mut file = read(solver)?;
    strip(&mut file.items);
    file.attrs.retain(|a| !a.path().is_ident("doc"));

    // Which crates the solver names, by the first segment of its paths.
    let mut paths = Paths::default();
    paths.visit_file(&file);
    let crates: BTreeSet<&String> = paths.all.iter().filter_map(|p| p.first()).collect();
    for &name in &crates {
        if ws.solver_deps.contains(name) && name != "games" && name != "proconio" {
            return Err(Error::ForeignCrate {
                solver: solver.to_path_buf(),
                krate: name.clone(),
            });
        }
    }
    for item in &file.items {
        if let syn::Item::ExternCrate(e) = item {
            return Err(Error::ForeignCrate {
                solver: solver.to_path_buf(),
                krate: e.ident.to_string(),
            });
        }
    }

    let mut modules = Vec::new();
    let mut whole_modules = Vec::new();
    let mut inlined = Vec::new();
    if crates.contains(&"games".to_string()) {
        let reached: BTreeSet<Vec<String>> = paths
            .all
            .iter()
            .filter(|p| p.len() > 1 && p[0] == "games")
            .map(|p| p[1..].to_vec())
            .collect();
        let (pruned, whole) = inline_games(&ws.games, &reached, &file)?;
        modules.push(pruned);
        whole_modules.push(whole);
        inlined.push(describe(&ws.games, "this workspace"));
    }
    let mut macros = BTreeSet::new();
    if crates.contains(&"proconio".to_string()) {
        let krate = ws.proconio.as_ref().ok_or_else(|| {
            Error::Metadata(format!(
                "{} uses proconio, but Cargo has not resolved it: add it to solvers' dependencies",
                solver.display()
            ))
        })?;
        let (module, exported) = inline_proconio(krate)?;
        macros = exported;
        whole_modules.push(module.clone());
        modules.push(module);
        inlined.push(describe(krate, &krate.authors.join(", ")));
    }

    let mut rewrite = SolverPaths { macros: &macros };
    rewrite.visit_file_mut(&mut file);
    file.items.retain(|item| !is_empty_use(item));
    let mut whole = file.clone();
    whole.items.extend(whole_modules);
    file.items.extend(modules);

    let from = solver.strip_prefix(&ws.root).unwrap_or(solver);
    let header = format!(
        "// {problem}: a single-file build for online judges (rustc, edition 2021, no external crates).\n\
         // Generated by scripts/bundler from {}; edit that, not this file.\n\
         // Inlined crates: {}.\n\n",
        from.display(),
        inlined.join("; ")
    );
    let unpruned = header.len() + tabs(prettyplease::unparse(&whole)).len();
    Ok(Bundle {
        problem,
        source: header + &tabs(prettyplease::unparse(&file)),
        inlined,
        unpruned,
    })
}

/// The code with each leading four spaces of indentation as one tab: judges limit the size
/// of a submission (Codeforces: 64 KiB), and indentation is over a third of a bundle. Lines
/// that continue a string literal (a `--help` text) are left as they are: their spaces are
/// the string's. Kept only if the result parses back to the same code; otherwise the spaces
/// stay.
fn tabs(code: String) -> String {
    let inside = literal_lines(&code);
    let tabbed: String = code
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if inside.contains(&(i + 1)) {
                return format!("{line}\n");
            }
            let spaces = line.len() - line.trim_start_matches(' ').len();
            format!(
                "{}{}{}\n",
                "\t".repeat(spaces / 4),
                " ".repeat(spaces % 4),
                &line[spaces..]
            )
        })
        .collect();
    let same = syn::parse_file(&tabbed).is_ok_and(|parsed| prettyplease::unparse(&parsed) == code);
    if same {
        tabbed
    } else {
        code
    }
}

/// The 1-based lines of `code` that a literal spanning lines continues onto (every line of
/// such a literal but its first).
fn literal_lines(code: &str) -> BTreeSet<usize> {
    fn walk(tokens: TokenStream, out: &mut BTreeSet<usize>) {
        for token in tokens {
            match token {
                TokenTree::Group(g) => walk(g.stream(), out),
                TokenTree::Literal(lit) => {
                    let span = lit.span();
                    out.extend(span.start().line + 1..=span.end().line);
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    if let Ok(tokens) = code.parse::<TokenStream>() {
        walk(tokens, &mut out);
    }
    out
}

fn describe(krate: &Crate, by: &str) -> String {
    format!(
        "{} {} ({by}; licence {})",
        krate.name, krate.version, krate.license
    )
}

/// Drops `#[cfg(test)]` items, items behind a Cargo feature (none is enabled), and doc
/// comments, recursively.
fn strip(items: &mut Vec<syn::Item>) {
    items.retain(|item| !attrs_of(item).iter().any(is_cfg_off));
    Docs.visit_items(items);
}

fn is_cfg_off(attr: &syn::Attribute) -> bool {
    if !attr.path().is_ident("cfg") {
        return false;
    }
    let tokens = match &attr.meta {
        syn::Meta::List(list) => list.tokens.to_string(),
        _ => return false,
    };
    tokens == "test" || tokens.starts_with("feature")
}

fn attrs_of(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Removes doc attributes everywhere, and `#[cfg(test)]` items inside inline modules.
struct Docs;

impl Docs {
    fn visit_items(&mut self, items: &mut [syn::Item]) {
        for item in items {
            self.visit_item_mut(item);
        }
    }
}

fn drop_docs(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(|a| !a.path().is_ident("doc"));
}

/// A `VisitMut` method for each node with attributes: drop its docs, then walk on.
macro_rules! without_docs {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(
            fn $method(&mut self, node: &mut $ty) {
                drop_docs(&mut node.attrs);
                syn::visit_mut::$method(self, node);
            }
        )*
    };
}

impl VisitMut for Docs {
    without_docs!(
        visit_item_const_mut: syn::ItemConst,
        visit_item_enum_mut: syn::ItemEnum,
        visit_item_fn_mut: syn::ItemFn,
        visit_item_impl_mut: syn::ItemImpl,
        visit_item_macro_mut: syn::ItemMacro,
        visit_item_static_mut: syn::ItemStatic,
        visit_item_struct_mut: syn::ItemStruct,
        visit_item_trait_mut: syn::ItemTrait,
        visit_item_type_mut: syn::ItemType,
        visit_item_union_mut: syn::ItemUnion,
        visit_item_use_mut: syn::ItemUse,
        visit_impl_item_const_mut: syn::ImplItemConst,
        visit_impl_item_fn_mut: syn::ImplItemFn,
        visit_impl_item_type_mut: syn::ImplItemType,
        visit_trait_item_const_mut: syn::TraitItemConst,
        visit_trait_item_fn_mut: syn::TraitItemFn,
        visit_trait_item_type_mut: syn::TraitItemType,
        visit_field_mut: syn::Field,
        visit_variant_mut: syn::Variant,
    );

    fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
        drop_docs(&mut module.attrs);
        if let Some((_, items)) = &mut module.content {
            strip(items);
        }
    }
}

/// A module of the shared crate: its own items, with each `mod x;` declaration left empty
/// for the child to fill in if it is kept, and the names of those children.
struct Module {
    items: Vec<syn::Item>,
    children: Vec<String>,
}

/// Inlines the shared crate: its root items, and the modules reached from `roots` (the
/// paths after `games::` in the solver), file by file:
///
/// - a module is kept when a kept module (or the solver) names something in it, by a
///   `crate::`, `super::`, `self::` or child-relative path, in code, `use` trees or macro
///   arguments; the ancestors of a kept module are kept;
/// - a module of nothing but `impl` blocks and `use` items (an adapter such as
///   `search/tictactoe.rs`, which makes a game searchable) is kept when its parent and every
///   module it names are kept: its impls are then needed, and nothing names them;
/// - a kept module's declarations of children that are not kept are dropped.
fn inline_games(
    krate: &Crate,
    roots: &BTreeSet<Vec<String>>,
    solver: &syn::File,
) -> Result<(syn::Item, syn::Item), Error> {
    let mut lib = read(&krate.lib)?;
    strip(&mut lib.items);
    let dir = krate.lib.parent().unwrap_or(Path::new("."));

    // The tree of file modules below the root.
    let mut tree: BTreeMap<Vec<String>, Module> = BTreeMap::new();
    let top: Vec<String> = child_names(&lib.items);
    for name in &top {
        load_tree(dir, std::slice::from_ref(name), &mut tree)?;
    }
    // Root names that a re-export points into a module: `Color` -> [color].
    let mut reexport: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for item in &lib.items {
        if let syn::Item::Use(u) = item {
            for (name, module) in reexports(&u.tree) {
                reexport.insert(name, vec![module]);
            }
        }
    }
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        let longest = (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|prefix| tree.contains_key(prefix));
        longest.or_else(|| path.first().and_then(|first| reexport.get(first).cloned()))
    };
    // The modules each module names.
    let mut names: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (path, module) in &tree {
        let mut refs = Paths::default();
        for item in &module.items {
            refs.visit_item(item);
        }
        let named = refs
            .all
            .iter()
            .filter_map(|p| absolute(path, &module.children, p))
            .filter_map(|p| resolve(&p))
            .filter(|p| p != path)
            .collect();
        names.insert(path.clone(), named);
    }

    let mut kept: BTreeSet<Vec<String>> = roots.iter().filter_map(|r| resolve(r)).collect();
    loop {
        // Close over naming and ancestors.
        let mut queue: Vec<Vec<String>> = kept.iter().cloned().collect();
        while let Some(path) = queue.pop() {
            let mut more: Vec<Vec<String>> =
                names.get(&path).into_iter().flatten().cloned().collect();
            more.extend((1..path.len()).map(|n| path[..n].to_vec()));
            for next in more {
                if kept.insert(next.clone()) {
                    queue.push(next);
                }
            }
        }
        // Adapters whose parent and every named module are kept.
        let adapters: Vec<Vec<String>> = tree
            .iter()
            .filter(|(path, module)| {
                !kept.contains(*path)
                    && kept.contains(&path[..path.len() - 1])
                    && is_adapter(&module.items)
                    && names[*path].iter().all(|n| kept.contains(n))
            })
            .map(|(path, _)| path.clone())
            .collect();
        if adapters.is_empty() {
            break;
        }
        kept.extend(adapters);
    }

    let mut items = Vec::new();
    for item in lib.items {
        match item {
            syn::Item::Mod(mut m) => {
                let path = vec![m.ident.to_string()];
                if kept.contains(&path) {
                    m.content = Some((Default::default(), assemble(&path, &mut tree, &kept)));
                    m.semi = None;
                    items.push(syn::Item::Mod(m));
                }
            }
            syn::Item::Use(u) => {
                // A re-export from a module left out goes too; other uses stay.
                let keep = reexports(&u.tree).iter().all(|(_, module)| {
                    !top.contains(module) || kept.contains(&vec![module.clone()])
                });
                if keep {
                    items.push(syn::Item::Use(u));
                }
            }
            other => items.push(other),
        }
    }
    let whole = items.clone();
    prune::prune(&mut items, solver);
    let inline = |items: Vec<syn::Item>| {
        let mut module: syn::ItemMod = syn::parse_quote!(
            mod games {}
        );
        module.content = Some((Default::default(), items));
        let mut module = syn::Item::Mod(module);
        CratePaths {
            name: "games",
            macros: None,
        }
        .visit_item_mut(&mut module);
        module
    };
    Ok((inline(items), inline(whole)))
}

/// The names of the `mod x;` declarations (file modules) among `items`.
fn child_names(items: &[syn::Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Mod(m) if m.content.is_none() => Some(m.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// Whether a module holds `impl` blocks and nothing else but `use` items.
fn is_adapter(items: &[syn::Item]) -> bool {
    items.iter().any(|i| matches!(i, syn::Item::Impl(_)))
        && items
            .iter()
            .all(|i| matches!(i, syn::Item::Impl(_) | syn::Item::Use(_)))
}

/// `path` as written in module `module` (whose file children are `children`), made
/// absolute below the crate root; `None` for paths that lead outside the crate (std, local
/// names, generic parameters).
fn absolute(module: &[String], children: &[String], path: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some([module, &path[1..]].concat()),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            let base = module.len().checked_sub(ups)?;
            Some([&module[..base], &path[ups..]].concat())
        }
        name if children.iter().any(|c| c == name) => Some([module, path].concat()),
        _ => None,
    }
}

/// Loads the module at `path` from its file below `dir` (the crate's `src`): `a/b.rs` or
/// `a/b/mod.rs`; then its file children, recursively.
fn load_tree(
    dir: &Path,
    path: &[String],
    tree: &mut BTreeMap<Vec<String>, Module>,
) -> Result<(), Error> {
    let rel = path.join("/");
    let flat = dir.join(format!("{rel}.rs"));
    let file = if flat.exists() {
        flat
    } else {
        dir.join(&rel).join("mod.rs")
    };
    let mut parsed = read(&file)?;
    strip(&mut parsed.items);
    for item in &parsed.items {
        if let syn::Item::Mod(m) = item {
            if m.attrs.iter().any(|a| a.path().is_ident("path")) {
                return Err(Error::Unsupported(
                    file.clone(),
                    format!("#[path] on module `{}`", m.ident),
                ));
            }
        }
    }
    let children = child_names(&parsed.items);
    for child in &children {
        load_tree(dir, &[path, std::slice::from_ref(child)].concat(), tree)?;
    }
    tree.insert(
        path.to_vec(),
        Module {
            items: parsed.items,
            children,
        },
    );
    Ok(())
}

/// The items of the kept module at `path`, its kept children filled in, the others dropped.
fn assemble(
    path: &[String],
    tree: &mut BTreeMap<Vec<String>, Module>,
    kept: &BTreeSet<Vec<String>>,
) -> Vec<syn::Item> {
    let items = tree
        .get_mut(path)
        .map(|m| std::mem::take(&mut m.items))
        .unwrap_or_default();
    let mut out = Vec::new();
    for item in items {
        match item {
            syn::Item::Mod(mut m) if m.content.is_none() => {
                let child = [path, &[m.ident.to_string()]].concat();
                if kept.contains(&child) {
                    m.content = Some((Default::default(), assemble(&child, tree, kept)));
                    m.semi = None;
                    out.push(syn::Item::Mod(m));
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Every path in some code, whole: in expressions and types, `use` trees (one path per
/// leaf) and `a :: b` runs of tokens in macro arguments.
#[derive(Default)]
struct Paths {
    all: BTreeSet<Vec<String>>,
}

/// The names of a path's segments, in order (`crate::go::Board` → `["crate", "go", "Board"]`).
fn segment_names(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.all.insert(segment_names(path));
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        fn walk(tree: &syn::UseTree, prefix: &[String], out: &mut Paths) {
            match tree {
                syn::UseTree::Path(p) => {
                    walk(&p.tree, &[prefix, &[p.ident.to_string()]].concat(), out);
                }
                syn::UseTree::Group(g) => g.items.iter().for_each(|t| walk(t, prefix, out)),
                syn::UseTree::Name(n) => {
                    out.all.insert([prefix, &[n.ident.to_string()]].concat());
                }
                syn::UseTree::Rename(r) => {
                    out.all.insert([prefix, &[r.ident.to_string()]].concat());
                }
                syn::UseTree::Glob(_) => {
                    out.all.insert(prefix.to_vec());
                }
            }
        }
        walk(&item.tree, &[], self);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        scan_paths(mac.tokens.clone(), self);
    }
}

/// Runs of `ident :: ident :: ...` in macro tokens.
fn scan_paths(tokens: TokenStream, out: &mut Paths) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => scan_paths(g.stream(), out),
            TokenTree::Ident(first) => {
                let mut path = vec![first.to_string()];
                while let (
                    Some(TokenTree::Punct(a)),
                    Some(TokenTree::Punct(b)),
                    Some(TokenTree::Ident(next)),
                ) = (trees.get(i + 1), trees.get(i + 2), trees.get(i + 3))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    path.push(next.to_string());
                    i += 3;
                }
                if path.len() > 1 {
                    out.all.insert(path);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// `(name, module)` for each name a root `use` brings in from one of the crate's modules.
fn reexports(tree: &syn::UseTree) -> Vec<(String, String)> {
    fn last(tree: &syn::UseTree, module: &str, out: &mut Vec<(String, String)>) {
        match tree {
            syn::UseTree::Path(p) => last(&p.tree, module, out),
            syn::UseTree::Name(n) => out.push((n.ident.to_string(), module.to_string())),
            syn::UseTree::Rename(r) => out.push((r.rename.to_string(), module.to_string())),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| last(t, module, out)),
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut out = Vec::new();
    if let syn::UseTree::Path(p) = tree {
        let module = p.ident.to_string();
        if module == "crate" || module == "self" {
            if let syn::UseTree::Path(inner) = &*p.tree {
                last(&inner.tree, &inner.ident.to_string(), &mut out);
            }
        } else {
            last(&p.tree, &module, &mut out);
        }
    }
    out
}

/// Inlines proconio whole (its modules depend on each other); returns the module and the
/// names of its `#[macro_export]` macros.
fn inline_proconio(krate: &Crate) -> Result<(syn::Item, BTreeSet<String>), Error> {
    let mut lib = read(&krate.lib)?;
    strip(&mut lib.items);
    let dir = krate.lib.parent().unwrap_or(Path::new("."));
    let mut tree = BTreeMap::new();
    for name in child_names(&lib.items) {
        load_tree(dir, &[name], &mut tree)?;
    }
    let every: BTreeSet<Vec<String>> = tree.keys().cloned().collect();
    for item in &mut lib.items {
        if let syn::Item::Mod(m) = item {
            if m.content.is_none() {
                let path = vec![m.ident.to_string()];
                m.content = Some((Default::default(), assemble(&path, &mut tree, &every)));
                m.semi = None;
            }
        }
    }
    let macros: BTreeSet<String> = lib
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m) if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                m.ident.as_ref().map(ToString::to_string)
            }
            _ => None,
        })
        .collect();
    let mut module = wrap("proconio", lib.items);
    CratePaths {
        name: "proconio",
        macros: Some(&macros),
    }
    .visit_item_mut(&mut module);
    Ok((module, macros))
}

/// `#[allow(...)] pub mod name { items }`: the inlined crate keeps items the solver does not
/// use, which are not worth a warning on a judge.
fn wrap(name: &str, items: Vec<syn::Item>) -> syn::Item {
    let ident = Ident::new(name, Span::call_site());
    let mut module: syn::ItemMod = syn::parse_quote! {
        #[allow(dead_code, unused_imports, unused_macros, clippy::all)]
        pub mod #ident {}
    };
    module.content = Some((Default::default(), items));
    syn::Item::Mod(module)
}

/// Rewrites an inlined crate's own paths: `crate::x` becomes `crate::<name>::x`; inside its
/// macros, `$crate::x` becomes `$crate::<name>::x` unless `x` is one of its exported macros,
/// which live at the crate root.
struct CratePaths<'a> {
    name: &'a str,
    macros: Option<&'a BTreeSet<String>>,
}

impl VisitMut for CratePaths<'_> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        // `crate::x` only: a lone `crate` is `pub(crate)`, which keeps its meaning.
        if path.segments.len() > 1 && path.segments.first().is_some_and(|s| s.ident == "crate") {
            let segment: syn::PathSegment = Ident::new(self.name, Span::call_site()).into();
            path.segments.insert(1, segment);
        }
        syn::visit_mut::visit_path_mut(self, path);
    }

    fn visit_use_tree_mut(&mut self, tree: &mut syn::UseTree) {
        if let syn::UseTree::Path(p) = tree {
            if p.ident == "crate" {
                let inner = std::mem::replace(&mut *p.tree, placeholder());
                let name = Ident::new(self.name, Span::call_site());
                *p.tree = syn::parse_quote!(#name::#inner);
                return;
            }
        }
        syn::visit_mut::visit_use_tree_mut(self, tree);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        mac.tokens = self.tokens(std::mem::take(&mut mac.tokens));
        syn::visit_mut::visit_macro_mut(self, mac);
    }

    fn visit_item_macro_mut(&mut self, item: &mut syn::ItemMacro) {
        item.mac.tokens = self.tokens(std::mem::take(&mut item.mac.tokens));
    }
}

impl CratePaths<'_> {
    fn tokens(&self, tokens: TokenStream) -> TokenStream {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out = Vec::with_capacity(trees.len());
        for (i, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Group(g) => {
                    let mut group = proc_macro2::Group::new(g.delimiter(), self.tokens(g.stream()));
                    group.set_span(g.span());
                    out.push(TokenTree::Group(group));
                }
                TokenTree::Ident(id) if id == "crate" => {
                    out.push(tree.clone());
                    let is_path = matches!(
                        (trees.get(i + 1), trees.get(i + 2)),
                        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                            if a.as_char() == ':' && b.as_char() == ':'
                    );
                    let dollar = i >= 1
                        && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    // `$crate::name!` names an exported macro at the crate root: keep it.
                    let root_macro = dollar
                        && matches!(
                            (trees.get(i + 3), trees.get(i + 4), self.macros),
                            (Some(TokenTree::Ident(name)), Some(TokenTree::Punct(bang)), Some(macros))
                                if bang.as_char() == '!' && macros.contains(&name.to_string())
                        );
                    if is_path && !root_macro {
                        out.push(TokenTree::Punct(Punct::new(':', Spacing::Joint)));
                        out.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
                        out.push(TokenTree::Ident(Ident::new(self.name, Span::call_site())));
                    }
                }
                _ => out.push(tree.clone()),
            }
        }
        out.into_iter().collect()
    }
}

/// Rewrites the solver's paths: `games::x` and `proconio::x` become `crate::games::x` and
/// `crate::proconio::x`; imports of proconio's exported macros are dropped (they live at
/// the crate root, where the solver's code finds them unimported), and `proconio::input!`
/// becomes `crate::input!`.
struct SolverPaths<'a> {
    macros: &'a BTreeSet<String>,
}

impl VisitMut for SolverPaths<'_> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if let (Some(first), true) = (path.segments.first(), path.segments.len() > 1) {
            if first.ident == "games" || first.ident == "proconio" {
                let krate: syn::PathSegment = Ident::new("crate", Span::call_site()).into();
                let is_macro = first.ident == "proconio"
                    && path.segments.len() == 2
                    && self.macros.contains(&path.segments[1].ident.to_string());
                if is_macro {
                    path.segments[0] = krate;
                } else {
                    path.segments.insert(0, krate);
                }
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }

    fn visit_item_use_mut(&mut self, item: &mut syn::ItemUse) {
        if drop_macro_imports(&mut item.tree, false, self.macros) {
            // Only macros were imported: leave an empty tree for `is_empty_use` to remove.
            item.tree = syn::parse_quote!({});
            return;
        }
        if let syn::UseTree::Path(p) = &mut item.tree {
            if p.ident == "games" || p.ident == "proconio" {
                let inner = std::mem::replace(&mut item.tree, placeholder());
                item.tree = syn::parse_quote!(crate::#inner);
            }
        }
    }
}

/// Removes `proconio::<macro>` leaves from a use tree; returns whether nothing is left.
fn drop_macro_imports(
    tree: &mut syn::UseTree,
    in_proconio: bool,
    macros: &BTreeSet<String>,
) -> bool {
    match tree {
        syn::UseTree::Path(p) => {
            drop_macro_imports(&mut p.tree, in_proconio || p.ident == "proconio", macros)
        }
        syn::UseTree::Name(n) => in_proconio && macros.contains(&n.ident.to_string()),
        syn::UseTree::Rename(r) => in_proconio && macros.contains(&r.ident.to_string()),
        syn::UseTree::Group(g) => {
            g.items = std::mem::take(&mut g.items)
                .into_iter()
                .filter_map(|mut t| (!drop_macro_imports(&mut t, in_proconio, macros)).then_some(t))
                .collect();
            g.items.is_empty()
        }
        syn::UseTree::Glob(_) => false,
    }
}

/// A use tree to leave behind while a real one is moved out.
fn placeholder() -> syn::UseTree {
    syn::parse_quote!(*)
}

fn is_empty_use(item: &syn::Item) -> bool {
    fn empty(tree: &syn::UseTree) -> bool {
        match tree {
            syn::UseTree::Path(p) => empty(&p.tree),
            syn::UseTree::Group(g) => g.items.iter().all(empty),
            _ => false,
        }
    }
    matches!(item, syn::Item::Use(u) if empty(&u.tree))
}
