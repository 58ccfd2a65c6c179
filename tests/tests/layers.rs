//! The shape of the source tree: no import circle between the files of one
//! crate, no source file over 1,000 lines, no function over 150 lines.
//!
//! Each crate's files are parsed with `syn`. A file depends on a sibling
//! when one of its `use` declarations or one of its qualified paths
//! (`crate::a::b`, `super::c`, `self::d`, or a child module's name) names
//! an item of that sibling's module; a `mod x;` declaration is not a
//! dependency, a `pub use x::Y` re-export is. A circle is a strongly
//! connected component of more than one file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Longest source file, in lines.
const MAX_FILE_LINES: usize = 1_000;
/// Longest function, in lines (signature to closing brace).
const MAX_FN_LINES: usize = 150;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if p.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    stack.push(p);
                }
            } else if name.ends_with(".rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The workspace's crates: (name, `src` folder).
fn crates() -> Vec<(String, PathBuf)> {
    let root = workspace_root();
    let mut out = Vec::new();
    for e in std::fs::read_dir(&root).unwrap().flatten() {
        let src = e.path().join("src");
        if e.path().join("Cargo.toml").is_file() && src.is_dir() {
            out.push((e.file_name().to_string_lossy().to_string(), src));
        }
    }
    out.sort();
    out
}

/// The module path of a file relative to its crate's `src` folder
/// (`lib.rs`, `main.rs` -> `[]`; `a/mod.rs`, `a.rs` -> `[a]`; `a/b.rs`
/// -> `[a, b]`). `None` for a file that is not a module of the library
/// (binaries under `src/bin`).
fn module_of(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().to_string())
        .collect();
    if parts.first().map(String::as_str) == Some("bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.trim_end_matches(".rs");
    if !(parts.is_empty() && (stem == "lib" || stem == "main")) && stem != "mod" {
        parts.push(stem.to_string());
    }
    Some(parts)
}

/// Collects the module paths a file names, made absolute.
struct Refs<'a> {
    /// The module the visitor is in (the file's module plus inline `mod`s).
    here: Vec<String>,
    /// Every file module of the crate.
    modules: &'a BTreeSet<Vec<String>>,
    /// Absolute paths named.
    named: Vec<Vec<String>>,
}

impl Refs<'_> {
    /// Resolves a path's leading segments to an absolute module path.
    fn absolute(&self, segs: &[String]) -> Option<Vec<String>> {
        let first = segs.first()?;
        let mut base = self.here.clone();
        let rest: &[String] = match first.as_str() {
            "crate" => {
                base.clear();
                &segs[1..]
            }
            "self" => &segs[1..],
            "super" => {
                let mut i = 0;
                while segs.get(i).map(String::as_str) == Some("super") {
                    base.pop();
                    i += 1;
                }
                &segs[i..]
            }
            _ => {
                let mut child = base.clone();
                child.push(first.clone());
                if !self.modules.contains(&child) {
                    return None;
                }
                segs
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.record(prefix);
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.record(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.record(prefix),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    fn record(&mut self, segs: &[String]) {
        if let Some(abs) = self.absolute(segs) {
            self.named.push(abs);
        }
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.leading_colon.is_none() && p.segments.len() > 1 {
            let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
            self.record(&segs);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if m.content.is_some() {
            self.here.push(m.ident.to_string());
            syn::visit::visit_item_mod(self, m);
            self.here.pop();
        }
    }
}

/// The file a module path's item lives in: the longest prefix that is a
/// file module.
fn owner<'a>(
    path: &[String],
    files: &'a BTreeMap<Vec<String>, PathBuf>,
) -> Option<&'a Vec<String>> {
    (0..=path.len())
        .rev()
        .find_map(|n| files.get_key_value(&path[..n]).map(|(k, _)| k))
}

/// Strongly connected components (Tarjan) of more than one node.
fn circles(edges: &BTreeMap<usize, BTreeSet<usize>>, n: usize) -> Vec<Vec<usize>> {
    struct T<'a> {
        edges: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn go(t: &mut T<'_>, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        let succ: Vec<usize> = t.edges.get(&v).into_iter().flatten().copied().collect();
        for w in succ {
            match t.index[w] {
                None => {
                    go(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            go(&mut t, v);
        }
    }
    t.out
}

fn parse(file: &Path) -> syn::File {
    let text = std::fs::read_to_string(file).unwrap();
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The import circles of one crate, each as its files' paths.
fn crate_circles(src: &Path) -> Vec<Vec<String>> {
    let mut files: BTreeMap<Vec<String>, PathBuf> = BTreeMap::new();
    for f in rust_files(src) {
        if let Some(m) = module_of(src, &f) {
            files.insert(m, f);
        }
    }
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    let ids: BTreeMap<&Vec<String>, usize> =
        files.keys().enumerate().map(|(i, k)| (k, i)).collect();
    let names: Vec<String> = files
        .values()
        .map(|p| p.strip_prefix(src).unwrap().display().to_string())
        .collect();
    let mut edges: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (m, f) in &files {
        let mut r = Refs {
            here: m.clone(),
            modules: &modules,
            named: Vec::new(),
        };
        r.visit_file(&parse(f));
        let from = ids[m];
        for p in r.named {
            if let Some(to) = owner(&p, &files) {
                let to = ids[to];
                if to != from {
                    edges.entry(from).or_default().insert(to);
                }
            }
        }
    }
    circles(&edges, files.len())
        .into_iter()
        .map(|c| {
            let mut c: Vec<String> = c.into_iter().map(|i| names[i].clone()).collect();
            c.sort();
            c
        })
        .collect()
}

#[test]
fn no_import_circle_between_the_files_of_a_crate() {
    let mut found = Vec::new();
    for (name, src) in crates() {
        for c in crate_circles(&src) {
            found.push(format!("{name}: {}", c.join(", ")));
        }
    }
    assert!(
        found.is_empty(),
        "import circles (files that import each other, directly or through others):\n{}",
        found.join("\n")
    );
}

/// A planted circle is found: the check can fail.
#[test]
fn a_planted_circle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod a; mod b; mod c;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
    std::fs::write(src.join("b.rs"), "pub struct B(super::c::C);\n").unwrap();
    std::fs::write(src.join("c.rs"), "pub struct C(crate::a::A);\n").unwrap();
    assert_eq!(crate_circles(src), vec![vec!["a.rs", "b.rs", "c.rs"]]);
    // Broken: c no longer names a.
    std::fs::write(src.join("c.rs"), "pub struct C;\n").unwrap();
    assert!(crate_circles(src).is_empty());
    // A re-export in a parent is an edge; a `mod` declaration is not.
    std::fs::create_dir(src.join("d")).unwrap();
    std::fs::write(src.join("d/mod.rs"), "mod e;\npub struct D;\n").unwrap();
    std::fs::write(src.join("d/e.rs"), "use super::D;\n").unwrap();
    std::fs::write(src.join("lib.rs"), "mod a; mod b; mod c; mod d;\n").unwrap();
    assert!(crate_circles(src).is_empty());
    std::fs::write(
        src.join("d/mod.rs"),
        "mod e;\npub use e::E;\npub struct D;\n",
    )
    .unwrap();
    std::fs::write(src.join("d/e.rs"), "use super::D;\npub struct E;\n").unwrap();
    assert_eq!(crate_circles(src), vec![vec!["d/e.rs", "d/mod.rs"]]);
}

/// Functions longer than [`MAX_FN_LINES`] in one file, as (name, lines).
fn long_functions(file: &Path) -> Vec<(String, usize)> {
    function_lengths(file, MAX_FN_LINES)
}

/// Functions longer than `over` lines in one file, as (name, lines).
fn function_lengths(file: &Path, over: usize) -> Vec<(String, usize)> {
    struct Fns(Vec<(String, usize)>, usize);
    impl Fns {
        fn add(&mut self, name: &syn::Ident, span: proc_macro2::Span) {
            let lines = span.end().line - span.start().line + 1;
            if lines > self.1 {
                self.0.push((name.to_string(), lines));
            }
        }
    }
    impl<'ast> Visit<'ast> for Fns {
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.add(&f.sig.ident, syn::spanned::Spanned::span(f));
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.add(&f.sig.ident, syn::spanned::Spanned::span(f));
            syn::visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if f.default.is_some() {
                self.add(&f.sig.ident, syn::spanned::Spanned::span(f));
            }
            syn::visit::visit_trait_item_fn(self, f);
        }
    }
    let mut v = Fns(Vec::new(), over);
    v.visit_file(&parse(file));
    v.0
}

/// Every Rust source file of the workspace (crates and the fuzz targets).
fn all_sources() -> Vec<PathBuf> {
    let root = workspace_root();
    let mut out = Vec::new();
    for e in std::fs::read_dir(&root).unwrap().flatten() {
        if e.path().join("Cargo.toml").is_file() {
            out.extend(rust_files(&e.path()));
        }
    }
    out.sort();
    out
}

#[test]
fn no_source_file_over_1000_lines_and_no_function_over_150() {
    let root = workspace_root();
    let mut found = Vec::new();
    for f in all_sources() {
        let rel = f.strip_prefix(&root).unwrap().display().to_string();
        let n = std::fs::read_to_string(&f).unwrap().lines().count();
        if n > MAX_FILE_LINES {
            found.push(format!("{rel}: {n} lines"));
        }
        for (name, lines) in long_functions(&f) {
            found.push(format!("{rel}: fn {name}: {lines} lines"));
        }
    }
    assert!(
        found.is_empty(),
        "split these along their sections (files at most {MAX_FILE_LINES} lines, functions at most {MAX_FN_LINES}):\n{}",
        found.join("\n")
    );
}

/// A planted long function is found.
#[test]
fn a_planted_long_function_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.rs");
    let body = "    let _ = 1;\n".repeat(MAX_FN_LINES);
    std::fs::write(
        &f,
        format!("impl A {{\n    fn long() {{\n{body}    }}\n}}\n"),
    )
    .unwrap();
    assert_eq!(
        long_functions(&f),
        vec![("long".to_string(), MAX_FN_LINES + 2)]
    );
    std::fs::write(
        &f,
        format!("fn short() {{\n{}}}\n", "let _ = 1;\n".repeat(10)),
    )
    .unwrap();
    assert!(long_functions(&f).is_empty());
}

/// The five longest source files and functions, for the record:
/// `cargo test --release -p warpgen-tests --test layers -- --ignored --nocapture`.
#[test]
#[ignore = "a report, not a check"]
fn longest_files_and_functions() {
    let root = workspace_root();
    let mut files = Vec::new();
    let mut fns = Vec::new();
    for f in all_sources() {
        let rel = f.strip_prefix(&root).unwrap().display().to_string();
        files.push((
            std::fs::read_to_string(&f).unwrap().lines().count(),
            rel.clone(),
        ));
        for (name, lines) in function_lengths(&f, 0) {
            fns.push((lines, format!("{rel}: fn {name}")));
        }
    }
    files.sort_by(|a, b| b.cmp(a));
    fns.sort_by(|a, b| b.cmp(a));
    for (n, f) in files.iter().take(5) {
        println!("{n:>6}  {f}");
    }
    for (n, f) in fns.iter().take(5) {
        println!("{n:>6}  {f}");
    }
}
