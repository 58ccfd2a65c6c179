//! Writes `instance.rs`: the one block this program elaborates, named by
//! `WARPGEN_ELAB_SPEC` (the unit's `ports` type, e.g.
//! `ports::snake::SnakePrefetcher`) and `WARPGEN_ELAB_TYPE` (the block's
//! type with its widths, `hdl::registry::RtlDecl::rtl_type`). Without them
//! (a plain workspace build) the program has no instance and says so.

use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-env-changed=WARPGEN_ELAB_SPEC");
    println!("cargo:rerun-if-env-changed=WARPGEN_ELAB_TYPE");
    let spec = std::env::var("WARPGEN_ELAB_SPEC").unwrap_or_default();
    let ty = std::env::var("WARPGEN_ELAB_TYPE").unwrap_or_default();
    // Only a path of identifiers, `::`, `<`, `>`, `,`, digits and spaces.
    let ok = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_:<>, ".contains(c))
    };
    let mut code = String::new();
    if spec.is_empty() || ty.is_empty() || !ok(&spec) || !ok(&ty) {
        code.push_str(
            "/// No instance: this build was not made by `cosim::elaborate`.\n\
             pub fn build(_params: &str) -> Result<(Box<dyn hdl::RtlUnit>, usize), String> {\n    \
             Err(\"this warpgen-elab was built without an instance (WARPGEN_ELAB_SPEC and WARPGEN_ELAB_TYPE unset)\".into())\n}\n",
        );
    } else {
        let _ = write!(
            code,
            "/// The block of `{spec}` for the widths `{ty}`, and its number of\n\
             /// output ports.\n\
             pub fn build(params: &str) -> Result<(Box<dyn hdl::RtlUnit>, usize), String> {{\n    \
             let p: <{spec} as ports::UnitSpec>::Params =\n        \
             serde_json::from_str(params).map_err(|e| format!(\"the parameters: {{e}}\"))?;\n    \
             let outs = <{spec} as ports::UnitSpec>::outputs(&p).len();\n    \
             Ok((Box::new({ty}::new(&p)), outs))\n}}\n"
        );
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("instance.rs"), code).expect("writing instance.rs");
}
