// snake_prefetcher_props - formal property wrapper of verilog-out/snake_prefetcher.v
// (default configuration: PFQ_DEPTH = 4, THROTTLE_CYCLES = 50). Hand-written,
// not emitted. Probes (`warpgen_probe`) are bound by eda::formal, see
// ba_tag_array_props.sv.
//
// Properties (after the reset the wrapper assumes in the first cycle):
//  chk_pfq_packed   the prefetch queue's valid bits are packed from the head
//                   (occupancy 0..PFQ_DEPTH, no hole).
//  chk_pfq_count    no accepted entry is lost or invented: accepted
//                   (push & ~full) minus delivered (pf_valid & pf_ready)
//                   since reset equals the occupancy.
//  chk_pf_head      pf_valid is the queue's head valid bit.
//  chk_pf_hold      pf_valid, once raised, stays until pf_ready, with
//                   pf_addr, pf_warp, pf_kind and pf_span unchanged.
//  chk_pf_kind      pf_kind is one of chain (0), inter-warp (1), intra (2)
//                   while pf_valid.
//  chk_pfq_kinds    (auxiliary, makes chk_pf_kind inductive) every queued
//                   entry's kind is 0..2, and so is the output stage's
//                   (issue 29 step 11: an intra- or inter-warp prefetch
//                   enters the queue from it one edge after it is made).
//  chk_throttle     the cache-full throttle counter never exceeds
//                   THROTTLE_CYCLES (it is loaded with it and counts down).
`default_nettype none
module snake_prefetcher_props(
    input wire clock,
    input wire reset,
    input wire ld_valid,
    input wire [5:0] ld_warp,
    input wire [31:0] ld_pc,
    input wire [31:0] ld_addr,
    input wire ld_uniform,
    input wire [6:0] ld_cta_end,
    input wire [11:0] ld_span,
    input wire cache_full,
    input wire [6:0] bw_util,
    input wire pf_ready
);
    wire pf_valid;
    wire [31:0] pf_addr;
    wire [5:0] pf_warp;
    wire [1:0] pf_kind;
    wire [11:0] pf_span;
    wire throttled;

    snake_prefetcher u(
        .clock(clock), .reset(reset), .ld_valid(ld_valid), .ld_warp(ld_warp),
        .ld_pc(ld_pc), .ld_addr(ld_addr), .ld_uniform(ld_uniform),
        .ld_cta_end(ld_cta_end), .ld_span(ld_span),
        .cache_full(cache_full), .bw_util(bw_util), .pf_ready(pf_ready),
        .pf_valid(pf_valid), .pf_addr(pf_addr), .pf_warp(pf_warp),
        .pf_kind(pf_kind), .pf_span(pf_span), .throttled(throttled)
    );

    reg init = 1'b1;
    always @(posedge clock) init <= 1'b0;
    always @(*) if (init) assume(reset);

    (* keep, warpgen_probe = "u.pfq.valid__0.q" *) wire p_v0;
    (* keep, warpgen_probe = "u.pfq.valid__1.q" *) wire p_v1;
    (* keep, warpgen_probe = "u.pfq.valid__2.q" *) wire p_v2;
    (* keep, warpgen_probe = "u.pfq.valid__3.q" *) wire p_v3;
    (* keep, warpgen_probe = "u.pfq.push_ok" *) wire p_push_ok;
    (* keep, warpgen_probe = "u.pfq.data__1.q" *) wire [51:0] p_d1;
    (* keep, warpgen_probe = "u.pfq.data__2.q" *) wire [51:0] p_d2;
    (* keep, warpgen_probe = "u.pfq.data__3.q" *) wire [51:0] p_d3;
    (* keep, warpgen_probe = "u.pst_kind.q" *) wire [1:0] p_stk;
    (* keep, warpgen_probe = "u.count.q" *) wire [15:0] p_throttle;

    wire [2:0] occ = {2'b0, p_v0} + {2'b0, p_v1} + {2'b0, p_v2} + {2'b0, p_v3};
    wire pop = pf_valid & pf_ready;

    reg [2:0] held = 3'd0;
    always @(posedge clock)
        if (reset) held <= 3'd0;
        else held <= held + {2'b0, p_push_ok} - {2'b0, pop};

    reg past_stall = 1'b0;
    reg [51:0] past_pf = 52'd0;
    always @(posedge clock) begin
        past_stall <= ~reset & pf_valid & ~pf_ready;
        past_pf <= {pf_addr, pf_warp, pf_kind, pf_span};
    end

    wire chk_pfq_packed = init | ((p_v1 <= p_v0) & (p_v2 <= p_v1) & (p_v3 <= p_v2));
    wire chk_pfq_count = init | (held == occ);
    wire chk_pf_head = init | (pf_valid == p_v0);
    wire chk_pf_hold = init | !past_stall
        | (pf_valid && {pf_addr, pf_warp, pf_kind, pf_span} == past_pf);
    wire chk_pf_kind = init | !pf_valid | (pf_kind != 2'd3);
    // Strengthening invariant (for induction): every queued entry, not only
    // the head, carries a kind code 0..2 (the queue packs {span, kind, warp,
    // addr}: the kind is bits [39:38]).
    wire chk_pfq_kinds = init | ((!p_v1 | p_d1[39:38] != 2'd3)
        & (!p_v2 | p_d2[39:38] != 2'd3) & (!p_v3 | p_d3[39:38] != 2'd3)
        & (p_stk != 2'd3));
    wire chk_throttle = init | (p_throttle <= 16'd50);

    always @(*) begin
        pfq_packed: assert(chk_pfq_packed);
        pfq_count: assert(chk_pfq_count);
        pf_head: assert(chk_pf_head);
        pf_hold: assert(chk_pf_hold);
        pf_kind_code: assert(chk_pf_kind);
        pfq_kinds: assert(chk_pfq_kinds);
        throttle_bound: assert(chk_throttle);
    end
endmodule
