// caps_prefetcher_props - formal property wrapper of verilog-out/caps_prefetcher.v
// (default configuration, PFQ_DEPTH = 4). Hand-written, not emitted.
// Probes (`warpgen_probe`) are bound by eda::formal, see ba_tag_array_props.sv.
//
// Properties (after the reset the wrapper assumes in the first cycle):
//  chk_pfq_packed   the prefetch queue's valid bits are packed from the head
//                   (occupancy 0..PFQ_DEPTH, no hole).
//  chk_pfq_count    no accepted entry is lost or invented: the entries
//                   accepted (push & ~full) minus those delivered
//                   (pf_valid & pf_ready) since reset equal the occupancy.
//  chk_pf_head      pf_valid is the queue's head valid bit.
//  chk_pf_hold      pf_valid, once raised, stays until pf_ready, with
//                   pf_addr, pf_cta and pf_warp unchanged.
`default_nettype none
module caps_prefetcher_props(
    input wire clock,
    input wire reset,
    input wire [5:0] cfg_warps_per_cta,
    input wire cta_launch_valid,
    input wire [2:0] cta_launch_slot,
    input wire ld_valid,
    input wire [31:0] ld_pc,
    input wire [2:0] ld_cta,
    input wire [5:0] ld_warp,
    input wire [5:0] ld_count,
    input wire [31:0] ld_addr0,
    input wire [31:0] ld_addr1,
    input wire [31:0] ld_addr2,
    input wire [31:0] ld_addr3,
    input wire ld_indirect,
    input wire pf_ready
);
    wire pf_valid;
    wire [31:0] pf_addr;
    wire [2:0] pf_cta;
    wire [5:0] pf_warp;

    caps_prefetcher u(
        .clock(clock), .reset(reset), .cfg_warps_per_cta(cfg_warps_per_cta),
        .cta_launch_valid(cta_launch_valid), .cta_launch_slot(cta_launch_slot),
        .ld_valid(ld_valid), .ld_pc(ld_pc), .ld_cta(ld_cta), .ld_warp(ld_warp),
        .ld_count(ld_count), .ld_addr0(ld_addr0), .ld_addr1(ld_addr1),
        .ld_addr2(ld_addr2), .ld_addr3(ld_addr3), .ld_indirect(ld_indirect),
        .pf_ready(pf_ready), .pf_valid(pf_valid), .pf_addr(pf_addr),
        .pf_cta(pf_cta), .pf_warp(pf_warp)
    );

    reg init = 1'b1;
    always @(posedge clock) init <= 1'b0;
    always @(*) if (init) assume(reset);

    (* keep, warpgen_probe = "u.pfq.valid__0.q" *) wire p_v0;
    (* keep, warpgen_probe = "u.pfq.valid__1.q" *) wire p_v1;
    (* keep, warpgen_probe = "u.pfq.valid__2.q" *) wire p_v2;
    (* keep, warpgen_probe = "u.pfq.valid__3.q" *) wire p_v3;
    (* keep, warpgen_probe = "u.pfq.push_ok" *) wire p_push_ok;

    wire [2:0] occ = {2'b0, p_v0} + {2'b0, p_v1} + {2'b0, p_v2} + {2'b0, p_v3};
    wire pop = pf_valid & pf_ready;

    // Entries accepted minus entries delivered since reset.
    reg [2:0] held = 3'd0;
    always @(posedge clock)
        if (reset) held <= 3'd0;
        else held <= held + {2'b0, p_push_ok} - {2'b0, pop};

    reg past_stall = 1'b0;
    reg [40:0] past_pf = 41'd0;
    always @(posedge clock) begin
        past_stall <= ~reset & pf_valid & ~pf_ready;
        past_pf <= {pf_addr, pf_cta, pf_warp};
    end

    wire chk_pfq_packed = init | ((p_v1 <= p_v0) & (p_v2 <= p_v1) & (p_v3 <= p_v2));
    wire chk_pfq_count = init | (held == occ);
    wire chk_pf_head = init | (pf_valid == p_v0);
    wire chk_pf_hold = init | !past_stall
        | (pf_valid && {pf_addr, pf_cta, pf_warp} == past_pf);

    always @(*) begin
        pfq_packed: assert(chk_pfq_packed);
        pfq_count: assert(chk_pfq_count);
        pf_head: assert(chk_pf_head);
        pf_hold: assert(chk_pf_hold);
    end
endmodule
