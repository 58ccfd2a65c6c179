// dac_expander_props (small) - formal property wrapper of dac_expander in
// the configuration hdl/formal/small/dac_expander.toml (N_WARPS = 8,
// N_CTA = 4, ATQ_DEPTH = 4, PWAQ_DEPTH = 2, PWPQ_DEPTH = 2). Hand-written,
// not emitted; the same properties as hdl/formal/dac_expander_props.sv
// (the paper configuration), on queues small enough that BMC reaches a
// full ATQ and the suite's check takes seconds: the suite checks this one
// (tests/tests/formal.rs), `warpgen prove` the paper configuration.
//
// Properties (after the reset the wrapper assumes in the first cycle):
//  chk_atq_bound    atq_count never exceeds ATQ_DEPTH (4).
//  chk_enq_ready    enq_ready == (atq_count < ATQ_DEPTH).
//  chk_atq_step     atq_count grows by at most one per cycle, and only at
//                   an edge that accepted a tuple (enq_valid & enq_ready).
//  chk_mem_hold     mem_valid stays 1 with the same mem_addr until an edge
//                   with mem_ready.
//  chk_mem_line     mem_addr is a line address (low 7 bits 0).
//  chk_rsp_valid    rsp_valid is 1 exactly one cycle after deq_valid.
//  chk_rsp_zero     every rsp_* field is 0 without a hit.
`default_nettype none
module dac_expander_props(
    input wire clock,
    input wire reset,
    input wire [3:0] cfg_bdx_log2,
    input wire [10:0] cfg_threads,
    input wire [5:0] cfg_warps_per_cta,
    input wire cta_launch_valid,
    input wire [1:0] cta_launch_slot,
    input wire [15:0] cta_launch_x,
    input wire [15:0] cta_launch_y,
    input wire cta_done_valid,
    input wire [1:0] cta_done_slot,
    input wire enq_valid,
    input wire [1:0] enq_kind,
    input wire [31:0] enq_base,
    input wire [31:0] enq_off_tx,
    input wire [31:0] enq_off_ty,
    input wire [31:0] enq_off_cx,
    input wire [31:0] enq_off_cy,
    input wire [1:0] enq_gran,
    input wire [2:0] enq_cmp,
    input wire [31:0] enq_scalar,
    input wire enq_guard,
    input wire mem_ready,
    input wire deq_valid,
    input wire [2:0] deq_warp,
    input wire deq_kind
);
    wire enq_ready;
    wire mem_valid;
    wire [31:0] mem_addr;
    wire rsp_valid;
    wire rsp_hit;
    wire [31:0] rsp_addr;
    wire [31:0] rsp_mask;
    wire [1:0] rsp_gran;
    wire rsp_last;
    wire [2:0] atq_count;
    wire [31:0] stat_pred_fast;
    wire [31:0] stat_pred_slow;
    wire [31:0] stat_guard_skips;

    dac_expander u(
        .clock(clock), .reset(reset), .cfg_bdx_log2(cfg_bdx_log2),
        .cfg_threads(cfg_threads), .cfg_warps_per_cta(cfg_warps_per_cta),
        .cta_launch_valid(cta_launch_valid), .cta_launch_slot(cta_launch_slot),
        .cta_launch_x(cta_launch_x), .cta_launch_y(cta_launch_y),
        .cta_done_valid(cta_done_valid), .cta_done_slot(cta_done_slot),
        .enq_valid(enq_valid), .enq_kind(enq_kind), .enq_base(enq_base),
        .enq_off_tx(enq_off_tx), .enq_off_ty(enq_off_ty), .enq_off_cx(enq_off_cx),
        .enq_off_cy(enq_off_cy), .enq_gran(enq_gran), .enq_cmp(enq_cmp),
        .enq_scalar(enq_scalar), .enq_guard(enq_guard), .mem_ready(mem_ready),
        .deq_valid(deq_valid),
        .deq_warp(deq_warp), .deq_kind(deq_kind), .enq_ready(enq_ready),
        .mem_valid(mem_valid), .mem_addr(mem_addr), .rsp_valid(rsp_valid),
        .rsp_hit(rsp_hit), .rsp_addr(rsp_addr), .rsp_mask(rsp_mask),
        .rsp_gran(rsp_gran), .rsp_last(rsp_last), .atq_count(atq_count),
        .stat_pred_fast(stat_pred_fast), .stat_pred_slow(stat_pred_slow),
        .stat_guard_skips(stat_guard_skips)
    );

    reg init = 1'b1;
    always @(posedge clock) init <= 1'b0;
    always @(*) if (init) assume(reset);

    reg past_mem_stall = 1'b0;
    reg [31:0] past_mem_addr = 32'd0;
    reg past_deq = 1'b0;
    reg past_reset = 1'b0;
    reg past_acc = 1'b0;
    reg [2:0] past_count = 3'd0;
    always @(posedge clock) begin
        past_mem_stall <= ~reset & mem_valid & ~mem_ready;
        past_mem_addr <= mem_addr;
        past_deq <= ~reset & deq_valid;
        past_reset <= reset;
        past_acc <= enq_valid & enq_ready;
        past_count <= atq_count;
    end

    wire chk_atq_bound = init | (atq_count <= 3'd4);
    wire chk_enq_ready = init | (enq_ready == (atq_count < 3'd4));
    wire chk_atq_step = init | past_reset
        | ({1'b0, atq_count} <= {1'b0, past_count} + {3'd0, past_acc});
    wire chk_mem_hold = init | !past_mem_stall
        | (mem_valid && mem_addr == past_mem_addr);
    wire chk_mem_line = init | !mem_valid | (mem_addr[6:0] == 7'd0);
    wire chk_rsp_valid = init | (rsp_valid == past_deq);
    wire chk_rsp_zero = init | rsp_hit
        | (rsp_addr == 32'd0 && rsp_mask == 32'd0 && rsp_gran == 2'd0 && !rsp_last);

    always @(*) begin
        atq_bound: assert(chk_atq_bound);
        enq_ready_count: assert(chk_enq_ready);
        atq_step: assert(chk_atq_step);
        mem_hold: assert(chk_mem_hold);
        mem_line: assert(chk_mem_line);
        rsp_valid_follows_deq: assert(chk_rsp_valid);
        rsp_zero: assert(chk_rsp_zero);
    end
endmodule
