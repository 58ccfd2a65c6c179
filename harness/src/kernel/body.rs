//! The compiler of a kernel's body into the harness's program: the
//! compiler's state, blocks and scopes, names, and the lowering of
//! expressions (the statements in `stmt.rs`).

use crate::config::InstrClass;
use std::collections::{BTreeMap, HashMap};

use super::types::{
    ArrayInfo, Instr, InstrInfo, MemInstrInfo, Program, FIRST_FREE_REG, REG_CTAID, REG_TID,
};
use crate::expr::{
    compile, lex, Ast, Class, Code, ExprClass, ExprError, Op, Parser, Pos, RExpr, Tok,
};

/// How deep blocks (`if`, `else if`, `loop`, `unroll`) may nest.
pub const MAX_BLOCK_DEPTH: usize = 64;
/// How many instructions a body may compile to (`unroll` copies included).
pub const MAX_INSTRS: usize = 1 << 17;
/// How many copies the `unroll` statements of a body may make in all
/// (nested ones multiply).
pub const MAX_UNROLLED: usize = 1 << 14;

/// The COUNT of `loop VAR COUNT` / `unroll VAR COUNT`: scalar (the same
/// for every thread), and not a negative constant.
pub(super) fn check_count(r: &RExpr, class: ExprClass, pos: Pos, what: &str) -> PResult<()> {
    if let Some(k) = r.as_const().filter(|&k| k < 0) {
        return Err(ExprError::new(
            pos,
            format!("`{what}` count {k} is negative (a count runs VAR = 0 .. COUNT-1)"),
        ));
    }
    if class.class != Class::Scalar {
        let kind = match (class.class, class.indirect) {
            (_, true) => "depends on loaded data",
            (Class::Affine, _) => "is affine (it differs between threads)",
            _ => "is non-affine (it may differ between threads)",
        };
        return Err(ExprError::new(
            pos,
            format!(
                "the count of `{what} VAR COUNT` must be scalar (the same for every thread), \
                 and this one {kind}; per-thread bounds are written `loop VAR = 0 .. END`"
            ),
        ));
    }
    Ok(())
}

/// A `/` or `%` whose divisor is the constant 0 is an error.
pub(super) fn no_zero_divisor(r: &RExpr, pos: Pos) -> PResult<()> {
    if r.zero_divisor() {
        return Err(ExprError::new(
            pos,
            "division by zero: a `/` or `%` has the constant divisor 0",
        ));
    }
    Ok(())
}

/// Element-wise join of two class vectors (the shorter padded with scalar).
pub(super) fn join_all(a: &[ExprClass], b: &[ExprClass]) -> Vec<ExprClass> {
    (0..a.len().max(b.len()))
        .map(|i| {
            let x = a.get(i).copied().unwrap_or(ExprClass::SCALAR);
            let y = b.get(i).copied().unwrap_or(ExprClass::SCALAR);
            x.join(y)
        })
        .collect()
}

/// A variable declared in the body.
#[derive(Clone, Copy)]
pub(super) struct Var {
    pub(super) reg: u16,
    /// Scope depth it was declared at.
    pub(super) depth: usize,
    pub(super) id: usize,
}

/// A block's names.
pub(super) struct Scope {
    pub(super) vars: HashMap<String, Var>,
    /// Names bound to constants (an `unroll` counter in its copy).
    pub(super) consts: HashMap<String, i64>,
    /// Join of the guards of this scope (non-scalar: divergent).
    pub(super) guard: ExprClass,
}

/// The compiler of one body (one pass of the classification's fixpoint).
pub(super) struct BodyCompiler<'a> {
    pub(super) params: &'a BTreeMap<String, i64>,
    pub(super) arrays: &'a [ArrayInfo],
    pub(super) grid: [u32; 3],
    pub(super) block: [u32; 3],
    pub(super) instrs: Vec<Instr>,
    pub(super) explicit_pc: Vec<Option<u32>>,
    pub(super) info: Vec<InstrInfo>,
    pub(super) ops: Vec<Op>,
    pub(super) stack_depth: usize,
    pub(super) next_reg: u16,
    pub(super) scopes: Vec<Scope>,
    /// Per variable id: its class at this point of the program (the
    /// classification is flow-sensitive: a use sees the definitions that
    /// reach it).
    pub(super) cur: Vec<ExprClass>,
    /// Per loop: the variable classes at its back edge in the previous pass
    /// (fixpoint input) and in this pass.
    pub(super) loop_in: Vec<Vec<ExprClass>>,
    pub(super) loop_out: Vec<Vec<ExprClass>>,
    /// Per register: its class (built-ins, temporaries; variables use `cur`).
    pub(super) reg_class: Vec<ExprClass>,
    pub(super) reg_var: Vec<Option<usize>>,
    pub(super) n_vars: usize,
    pub(super) nesting: usize,
    pub(super) max_nesting: usize,
    /// The file line of the body's first line, and the body line of the
    /// statement being compiled (for [`Code::line`]).
    line0: u32,
    pub(super) stmt_line: u32,
    /// Copies made by `unroll` so far (bounded by [`MAX_UNROLLED`]).
    pub(super) unrolled: usize,
    pub(super) mems: Vec<MemInstrInfo>,
    /// Per `LoopBegin` emitted: its statement's body line.
    pub(super) loop_lines: Vec<u32>,
    /// The address arithmetic's register (`Program::addr_reg`).
    pub(super) addr_reg: Option<u16>,
}

/// A result with an error at a position of the body.
pub(super) type PResult<T> = Result<T, ExprError>;

impl<'a> BodyCompiler<'a> {
    pub(super) fn compile(
        text: &str,
        params: &'a BTreeMap<String, i64>,
        arrays: &'a [ArrayInfo],
        grid: [u32; 3],
        block: [u32; 3],
        line0: u32,
    ) -> PResult<Program> {
        let toks = lex(text)?;
        let mut loops: Vec<Vec<ExprClass>> = Vec::new();
        // A loop feeds the classes at its back edge to its head: iterate
        // until they are stable.
        for _ in 0..8 {
            let mut c = BodyCompiler {
                params,
                arrays,
                grid,
                block,
                instrs: Vec::new(),
                explicit_pc: Vec::new(),
                info: Vec::new(),
                ops: Vec::new(),
                stack_depth: 1,
                next_reg: FIRST_FREE_REG,
                scopes: vec![Scope {
                    vars: HashMap::new(),
                    consts: HashMap::new(),
                    guard: ExprClass::SCALAR,
                }],
                cur: Vec::new(),
                loop_in: loops.clone(),
                loop_out: Vec::new(),
                reg_class: vec![ExprClass::AFFINE; FIRST_FREE_REG as usize],
                reg_var: vec![None; FIRST_FREE_REG as usize],
                n_vars: 0,
                nesting: 0,
                max_nesting: 0,
                line0,
                stmt_line: 0,
                unrolled: 0,
                mems: Vec::new(),
                loop_lines: Vec::new(),
                addr_reg: None,
            };
            let mut p = Parser::new(toks.clone());
            c.block_body(&mut p, true)?;
            c.emit(Instr::Exit, None);
            if c.loop_out == loops {
                return c.finish();
            }
            loops = c.loop_out;
        }
        Err(ExprError::new(
            Default::default(),
            "variable classification did not converge",
        ))
    }

    pub(super) fn finish(self) -> PResult<Program> {
        let mut seen: HashMap<u32, usize> = HashMap::new();
        let mut mem_pcs = vec![0u32; self.mems.len()];
        // The inserted address instructions take no PC of their own, so a
        // memory instruction's PC is the same whether the harness charges
        // address arithmetic or not.
        let mut inserted = 0u32;
        for (i, ins) in self.instrs.iter().enumerate() {
            if self.info[i].addr {
                inserted += 1;
                continue;
            }
            let pc = self.explicit_pc[i].unwrap_or(8 * (i as u32 - inserted));
            if let Instr::Load { mem, .. } | Instr::Store { mem, .. } = ins {
                if let Some(&other) = seen.get(&pc) {
                    return Err(ExprError::new(
                        Pos {
                            line: self.mems[*mem as usize].line,
                            col: 0,
                        },
                        format!(
                            "PC {pc:#x} is used by two memory instructions (the other is on body line {})",
                            self.mems[other].line + 1
                        ),
                    ));
                }
                seen.insert(pc, *mem as usize);
                mem_pcs[*mem as usize] = pc;
            }
        }
        let mut mems = self.mems;
        for (m, pc) in mems.iter_mut().zip(mem_pcs) {
            m.pc = pc;
        }
        Ok(Program {
            instrs: self.instrs,
            info: self.info,
            ops: self.ops,
            stack_depth: self.stack_depth,
            n_regs: self.next_reg as usize,
            max_nesting: self.max_nesting,
            mems,
            loop_lines: self.loop_lines,
            addr_reg: self.addr_reg,
        })
    }

    pub(super) fn new_reg(&mut self, class: ExprClass, var: Option<usize>) -> u16 {
        let r = self.next_reg;
        self.next_reg += 1;
        self.reg_class.push(class);
        self.reg_var.push(var);
        r
    }

    pub(super) fn guard(&self) -> ExprClass {
        self.scopes.last().unwrap().guard
    }

    /// Statements until `}` (or the end of the text when `top`).
    pub(super) fn block_body(&mut self, p: &mut Parser, top: bool) -> PResult<()> {
        let open = p.pos();
        if self.nesting > MAX_BLOCK_DEPTH {
            return Err(ExprError::new(
                open,
                format!(
                    "blocks nested more than {MAX_BLOCK_DEPTH} deep (`if`, `else if`, `loop` \
                     and `unroll` each add a level)"
                ),
            ));
        }
        if self.instrs.len() > MAX_INSTRS {
            return Err(ExprError::new(
                open,
                format!("the body compiles to more than {MAX_INSTRS} instructions"),
            ));
        }
        loop {
            p.skip_newlines();
            match p.peek() {
                Tok::Eof if top => return Ok(()),
                Tok::Eof => {
                    return Err(ExprError::new(
                        open,
                        "missing `}` for the block opened on this line",
                    ))
                }
                Tok::P("}") if !top => {
                    p.next();
                    return Ok(());
                }
                Tok::P("}") => return Err(ExprError::new(p.pos(), "unmatched `}`")),
                _ => {
                    let at = p.pos();
                    self.statement(p)?;
                    if self.instrs.len() > MAX_INSTRS {
                        return Err(ExprError::new(
                            at,
                            format!("the body compiles to more than {MAX_INSTRS} instructions"),
                        ));
                    }
                }
            }
        }
    }

    pub(super) fn end_of_statement(&mut self, p: &mut Parser) -> PResult<()> {
        match p.peek() {
            Tok::Newline | Tok::Eof | Tok::P("}") => Ok(()),
            t => Err(ExprError::new(
                p.pos(),
                format!("unexpected {t} after the statement"),
            )),
        }
    }

    pub(super) fn push_scope(&mut self, guard: ExprClass) {
        let g = self.guard().join(guard);
        self.scopes.push(Scope {
            vars: HashMap::new(),
            consts: HashMap::new(),
            guard: g,
        });
        self.nesting += 1;
        self.max_nesting = self.max_nesting.max(self.nesting);
    }

    pub(super) fn pop_scope(&mut self) {
        self.scopes.pop();
        self.nesting -= 1;
    }

    pub(super) fn check_name(&self, name: &str, pos: Pos) -> PResult<()> {
        let reserved = [
            "let", "load", "store", "loop", "unroll", "if", "else", "compute", "barrier", "step",
            "min", "max", "warpSize", "use", "uses",
        ];
        if reserved.contains(&name) {
            return Err(ExprError::new(pos, format!("`{name}` is reserved")));
        }
        if self.params.contains_key(name) {
            return Err(ExprError::new(
                pos,
                format!("`{name}` is a parameter; a variable cannot have its name"),
            ));
        }
        if self.arrays.iter().any(|a| a.name == name) {
            return Err(ExprError::new(pos, format!("`{name}` is an array")));
        }
        Ok(())
    }

    pub(super) fn lookup_var(&self, name: &str) -> Option<Var> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.vars.get(name).copied())
    }

    /// A name bound to a constant (an `unroll` counter) in an inner scope
    /// than any variable of that name.
    pub(super) fn lookup_const(&self, name: &str) -> Option<i64> {
        for s in self.scopes.iter().rev() {
            if let Some(&k) = s.consts.get(name) {
                return Some(k);
            }
            if s.vars.contains_key(name) {
                return None;
            }
        }
        None
    }

    pub(super) fn new_var(&mut self, class: ExprClass) -> usize {
        let id = self.n_vars;
        self.n_vars += 1;
        if self.cur.len() <= id {
            self.cur.resize(id + 1, ExprClass::SCALAR);
        }
        self.cur[id] = class;
        id
    }

    /// The class of a resolved expression at this point of the program.
    pub(super) fn class_of(&self, r: &RExpr) -> ExprClass {
        r.classify(&|reg| match self.reg_var[reg as usize] {
            Some(v) => self.cur[v],
            None => self.reg_class[reg as usize],
        })
    }

    pub(super) fn assign(
        &mut self,
        var: Var,
        r: RExpr,
        class: ExprClass,
        _pos: Pos,
    ) -> PResult<()> {
        // Divergence between the declaring scope and here makes the value
        // differ per thread.
        let mut div = ExprClass::SCALAR;
        for s in &self.scopes[var.depth + 1..] {
            div = div.join(s.guard);
        }
        let mut c = class;
        if div.class != Class::Scalar {
            // Threads that skip the assignment keep the old value.
            c = ExprClass {
                class: Class::NonAffine,
                indirect: c.indirect || div.indirect || self.cur[var.id].indirect,
            };
        }
        self.cur[var.id] = c;
        // `let x = A[i]`: the load writes x directly.
        if let RExpr::Reg(t) = r {
            if let Some(Instr::Load { dst: Some(d), .. }) = self.instrs.last_mut() {
                if *d == t {
                    *d = var.reg;
                    return Ok(());
                }
            }
        }
        let (code, _) = self.code(&r);
        self.emit(Instr::Let { dst: var.reg, code }, None);
        self.set_class(c);
        Ok(())
    }

    pub(super) fn array_id(&self, name: &str, pos: Pos) -> PResult<u16> {
        self.arrays
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as u16)
            .ok_or_else(|| {
                ExprError::new(
                    pos,
                    format!(
                        "unknown array `{name}`; declared: {}",
                        self.arrays
                            .iter()
                            .map(|a| a.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })
    }

    pub(super) fn opt_pc(&mut self, p: &mut Parser) -> PResult<Option<u32>> {
        if p.eat("@") {
            match p.next() {
                (Tok::Int(v), _) if (0..=u32::MAX as i64).contains(&v) => Ok(Some(v as u32)),
                // A literal past 2^63 wraps in the lexer: show it as written.
                (Tok::Int(v), pos) => Err(ExprError::new(
                    pos,
                    format!(
                        "the PC after `@` is {}: a PC is 0 to 0xFFFFFFFF (32 bits)",
                        if v < 0 {
                            format!("0x{:X}", v as u64)
                        } else {
                            v.to_string()
                        }
                    ),
                )),
                (t, pos) => Err(ExprError::new(
                    pos,
                    format!("expected a PC after `@`, found {t}"),
                )),
            }
        } else {
            Ok(None)
        }
    }

    pub(super) fn emit(&mut self, ins: Instr, pc: Option<u32>) {
        self.instrs.push(ins);
        self.explicit_pc.push(pc);
        self.info.push(InstrInfo {
            class: ExprClass::SCALAR,
            guard: self.guard(),
            addr: false,
        });
    }

    /// The address arithmetic of a load or store of index `idx` (folded),
    /// emitted just before it: a `Compute` of [`RExpr::address_ops`] ALU
    /// instructions, none when the address is a constant.
    pub(super) fn emit_address(&mut self, idx: &RExpr) {
        let n = idx.address_ops();
        if n > 0 {
            if self.addr_reg.is_none() {
                self.addr_reg = Some(self.new_reg(ExprClass::SCALAR, None));
            }
            self.emit(
                Instr::Compute {
                    n,
                    class: InstrClass::Alu,
                },
                None,
            );
            self.info.last_mut().expect("just emitted").addr = true;
        }
    }

    /// The class of the last emitted instruction's expression.
    pub(super) fn set_class(&mut self, class: ExprClass) {
        self.info.last_mut().expect("an instruction").class = class;
    }

    pub(super) fn code(&mut self, r: &RExpr) -> (Code, usize) {
        let (mut c, d) = compile(r, &mut self.ops);
        c.line = self.line0 + self.stmt_line;
        self.stack_depth = self.stack_depth.max(d);
        (c, d)
    }

    /// Resolve names, hoist array reads into load instructions, fold.
    pub(super) fn lower(&mut self, a: &Ast, stmt: Pos) -> PResult<(RExpr, ExprClass)> {
        let r = self.resolve(a)?.fold();
        no_zero_divisor(&r, stmt)?;
        let class = self.class_of(&r);
        Ok((r, class))
    }

    pub(super) fn resolve(&mut self, a: &Ast) -> PResult<RExpr> {
        Ok(match a {
            Ast::Int(v) => RExpr::Const(*v),
            Ast::Un(op, x) => RExpr::Un(*op, Box::new(self.resolve(x)?)),
            Ast::Bin(op, x, y) => {
                let x = self.resolve(x)?;
                let y = self.resolve(y)?;
                RExpr::Bin(*op, Box::new(x), Box::new(y))
            }
            Ast::Index(name, idx, pos) => {
                let array = self.array_id(name, *pos)?;
                let ri = self.resolve(idx)?.fold();
                no_zero_divisor(&ri, *pos)?;
                let class = self.class_of(&ri);
                let (code, _) = self.code(&ri);
                let dst = self.new_reg(ExprClass::LOADED, None);
                let mem = self.mems.len() as u16;
                self.mems.push(MemInstrInfo {
                    pc: 0,
                    store: false,
                    array: name.clone(),
                    class: class.class,
                    indirect: class.indirect,
                    line: pos.line,
                    texture: false,
                });
                self.emit_address(&ri);
                self.emit(
                    Instr::Load {
                        array,
                        index: code,
                        dst: Some(dst),
                        mem,
                    },
                    None,
                );
                self.set_class(class);
                RExpr::Reg(dst)
            }
            Ast::Name(n, pos) => {
                if let Some(k) = self.lookup_const(n) {
                    return Ok(RExpr::Const(k));
                }
                if let Some(v) = self.lookup_var(n) {
                    return Ok(RExpr::Reg(v.reg));
                }
                if let Some(&v) = self.params.get(n) {
                    return Ok(RExpr::Const(v));
                }
                let dim = |s: &str| match s {
                    "x" => 0usize,
                    "y" => 1,
                    _ => 2,
                };
                if let Some((base, f)) = n.split_once('.') {
                    let d = dim(f);
                    match base {
                        "tid" | "threadIdx" => return Ok(RExpr::Reg(REG_TID + d as u16)),
                        "ctaid" | "blockIdx" => return Ok(RExpr::Reg(REG_CTAID + d as u16)),
                        "ntid" | "blockDim" => return Ok(RExpr::Const(self.block[d] as i64)),
                        "nctaid" | "gridDim" => return Ok(RExpr::Const(self.grid[d] as i64)),
                        _ => {}
                    }
                }
                if n == "warpSize" {
                    return Ok(RExpr::Const(32));
                }
                return Err(ExprError::new(
                    *pos,
                    format!("unknown name `{n}` (not a variable, parameter or built-in)"),
                ));
            }
        })
    }
}
