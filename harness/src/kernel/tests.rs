//! The kernel file's loading and compilation, on small kernels.

use super::*;
use crate::expr::Class;

const VADD: &str = r#"
name = "vectorAdd"
grid = ["N / 256"]
block = [256]
body = """
let i = ctaid.x * blockDim.x + tid.x
if i < N {
  load A[i]
  load B[i]
  compute 2
  store C[i]
}
"""

[params]
N = 4096

[arrays.A]
elem = 4
len = "N"

[arrays.B]
elem = 4
len = "N"

[arrays.C]
elem = 4
len = "N"
"#;

#[test]
fn loads_vector_add() {
    let k = Kernel::from_str(VADD, "vadd.toml", &[], 1).unwrap();
    assert_eq!(k.grid, [16, 1, 1]);
    assert_eq!(k.arrays[0].base, ARRAY_BASE);
    assert_eq!(k.arrays[1].base, ARRAY_BASE + 4096 * 4);
    let m = k.mem_instrs();
    assert_eq!(m.len(), 3);
    assert!(m.iter().all(|m| m.class == Class::Affine && !m.indirect));
    assert_eq!(m[0].line, 8);
    assert!(m[2].store);
    let k2 = Kernel::from_str(VADD, "vadd.toml", &[("N".into(), 512)], 1).unwrap();
    assert_eq!(k2.grid, [2, 1, 1]);
    assert_eq!(k.array_at(ARRAY_BASE + 4096 * 4 + 8), Some(1));
    assert_eq!(k.array_at(ARRAY_BASE - 1), None);
}

fn err_of(text: &str) -> KernelError {
    Kernel::from_str(text, "bad.toml", &[], 1).unwrap_err()
}

fn with_body(body: &str) -> Result<Kernel, KernelError> {
    let text = format!(
        "name = \"u\"\ngrid = [1]\nblock = [32]\nbody = \"\"\"\n{body}\n\"\"\"\n\
         [params]\nR = 3\n[arrays.A]\nelem = 4\nlen = 1024\n"
    );
    Kernel::from_str(&text, "u.toml", &[], 1)
}

#[test]
fn unroll_gives_each_copy_its_own_instructions() {
    let k = with_body("unroll i = 1 .. R + 2 {\n  load A[i * 32 + tid.x]\n}").unwrap();
    // Four copies, four loads with their own PCs, no loop instructions.
    assert_eq!(k.mem_instrs().len(), 4);
    let pcs: std::collections::BTreeSet<u32> = k.mem_instrs().iter().map(|m| m.pc).collect();
    assert_eq!(pcs.len(), 4);
    assert!(!k
        .program
        .instrs
        .iter()
        .any(|i| matches!(i, Instr::LoopBegin { .. } | Instr::LoopEnd { .. })));
    // The counter is a constant in each copy: the indices are affine
    // in tid.x only.
    assert!(k.mem_instrs().iter().all(|m| m.class == Class::Affine));
    // Nested, negative steps, a count, and an empty unroll.
    let k = with_body(
        "unroll i 2 {\n  unroll j = 3 .. 0 step -1 {\n    load A[i * 8 + j]\n  }\n}\n\
         unroll z = 5 .. 5 {\n  load A[z]\n}",
    )
    .unwrap();
    assert_eq!(k.mem_instrs().len(), 6);
    let e = with_body("unroll i tid.x {\n  compute 1\n}").unwrap_err();
    assert!(e.to_string().contains("constant count"), "{e}");
    let e = with_body("unroll i = 0 .. 4 step 0 {\n  compute 1\n}").unwrap_err();
    assert!(e.to_string().contains("step"), "{e}");
}

#[test]
fn errors_name_file_line_field() {
    let e = err_of(&VADD.replace("len = \"N\"\n\n[arrays.B]", "len = \"NN\"\n\n[arrays.B]"));
    assert_eq!(e.line, Some(20));
    assert_eq!(e.field, "arrays.A.len");
    assert!(e.msg.contains("NN"), "{e}");
    assert!(
        e.to_string()
            .starts_with("bad.toml:20: field `arrays.A.len`"),
        "{e}"
    );

    let e = err_of(&VADD.replace("  load B[i]", "  load D[i]"));
    assert_eq!((e.line, e.field.as_str()), (Some(9), "body"));
    assert!(e.msg.contains("unknown array `D`"), "{e}");

    let e = err_of(&VADD.replace(
        "elem = 4\nlen = \"N\"\n\n[arrays.C]",
        "elem = 3\nlen = \"N\"\n\n[arrays.C]",
    ));
    assert_eq!(e.field, "arrays.B.elem");
    assert_eq!(e.line, Some(23));

    let e = err_of(&VADD.replace("block = [256]", "block = [256]\nblok = 3"));
    assert_eq!(e.field, "blok");
    assert_eq!(e.line, Some(5));

    let e = err_of(&VADD.replace("block = [256]\n", ""));
    assert_eq!(e.field, "block");

    let e = err_of(&VADD.replace("N = 4096", "N = \"abc\""));
    assert_eq!(e.field, "params.N");
    assert_eq!(e.line, Some(16));

    let e = err_of(&VADD.replace("N = 4096", "N = [1]"));
    assert_eq!(e.field, "params.N");

    let e = err_of(&VADD.replace("compute 2", "compute i"));
    assert_eq!(e.line, Some(10));
    let e = err_of(&VADD.replace("  compute 2\n", "  compute 2\n}\n"));
    assert!(e.msg.contains("unmatched"), "{e}");
    let e = err_of(&VADD.replace("if i < N {", "if i < N"));
    assert_eq!(e.line, Some(7));
}

#[test]
fn indirect_and_divergent_classification() {
    let text = r#"
name = "bfs-like"
grid = [4]
block = [64]
body = """
let tid = ctaid.x * 64 + tid.x
let s = nodes[2 * tid]
let n = nodes[2 * tid + 1]
loop e = s .. s + n {
  let id = edges[e]
  if visited[id] == 0 {
    store cost[id] = cost[tid] + 1
  }
}
let x = 0
if tid.x < 5 {
  x = 1
}
load cost[x]
"""
[params]
N = 256
[graphs.g]
nodes = "N"
[arrays.nodes]
elem = 4
len = "2 * N"
contents = { kind = "graph-nodes", graph = "g" }
[arrays.edges]
elem = 4
len = 4096
contents = { kind = "graph-edges", graph = "g" }
[arrays.visited]
elem = 1
len = "N"
contents = { kind = "bool", p = 0.5 }
[arrays.cost]
elem = 4
len = "N"
"#;
    let k = Kernel::from_str(text, "t.toml", &[], 3).unwrap();
    let m = k.mem_instrs();
    let by = |arr: &str, store: bool| {
        m.iter()
            .filter(|x| x.array == arr && x.store == store)
            .collect::<Vec<_>>()
    };
    assert!(by("nodes", false)
        .iter()
        .all(|x| !x.indirect && x.class == Class::Affine));
    assert!(by("edges", false)[0].indirect);
    assert!(by("visited", false)[0].indirect);
    assert!(by("cost", true)[0].indirect);
    let cost_loads = by("cost", false);
    assert!(!cost_loads[0].indirect && cost_loads[0].class == Class::Affine);
    // x assigned under a divergent condition: non-affine, not indirect.
    assert_eq!(cost_loads[1].class, Class::NonAffine);
    assert!(!cost_loads[1].indirect);
    // Graph contents: offsets consistent.
    let nodes = k.array("nodes").unwrap();
    let total: i64 = (0..256).map(|i| nodes.value(2 * i + 1)).sum();
    assert!((256..=8 * 256).contains(&total));
    let k2 = Kernel::from_str(text, "t.toml", &[], 3).unwrap();
    assert_eq!(
        k2.array("edges").unwrap().value(17),
        k.array("edges").unwrap().value(17)
    );
}

/// Each access's address arithmetic, as SASS would spend it: one
/// instruction per operator of the index plus one for `base + index *
/// elem`; a constant offset on the whole index folds into the memory
/// instruction; a constant index costs nothing.
#[test]
fn address_arithmetic_costs_one_instruction_per_operator() {
    let body = "let i = tid.x\n\
                let j = tid.x * 2\n\
                load A[i]\n\
                load A[i + 1]\n\
                load A[3 - i]\n\
                load A[j * R + i]\n\
                load A[(i + 2) * 4 + 8]\n\
                load A[5]\n\
                store A[i * i - 1]";
    let k = with_body(body).unwrap();
    let p = &k.program;
    // (address instructions, the access after them) in program order.
    let mut costs = Vec::new();
    for (i, ins) in p.instrs.iter().enumerate() {
        if matches!(ins, Instr::Load { .. } | Instr::Store { .. }) {
            let n = match p.instrs[i - 1] {
                Instr::Compute { n, .. } if p.info[i - 1].addr => n,
                _ => 0,
            };
            costs.push(n);
        }
    }
    // A[i]: 1; A[i + 1]: 1 (folded); A[3 - i]: 2 (the subtraction from a
    // constant is not an offset); A[j * R + i]: 3 (R is a constant
    // parameter, still an operator on j); A[(i + 2) * 4 + 8]: 3 (the
    // inner + 2 is under a multiplication: not folded); A[5]: 0;
    // A[i * i - 1]: 2.
    assert_eq!(costs, vec![1, 1, 2, 3, 3, 0, 2]);
    // The inserted instructions take no PC: the accesses keep 8 x their
    // index among the other instructions.
    let pcs: Vec<u32> = p.mems.iter().map(|m| m.pc).collect();
    assert_eq!(pcs, vec![16, 24, 32, 40, 48, 56, 64]);
    let user: usize = p.info.iter().filter(|x| !x.addr).count();
    assert_eq!(user, 2 + 7 + 1, "two lets, seven accesses, exit");
}
