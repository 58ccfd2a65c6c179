// ba_tag_array_props (small) - formal property wrapper of ba_tag_array in the
// configuration hdl/formal/small/ba_tag_array.toml (SETS = 2, WAYS = 4,
// LINE_BYTES = 128, ADDR_W = 32, BA_ENABLE = 1, REUSE_THRESHOLD = 2,
// BA_POLICY = 0). Hand-written, not emitted; the same properties as
// hdl/formal/ba_tag_array_props.sv (the paper configuration, 16 x 8), on an
// array small enough for BMC deep enough to see the pipeline's effects
// (a request's row reaches the memories three edges after it is accepted)
// and for induction: the suite checks this one (tests/tests/formal.rs),
// `warpgen prove` the paper configuration.
//
// Probes: as in the paper configuration's wrapper (eda::formal binds each
// `warpgen_probe` wire to the flattened signal it names).
//
// Properties (after the reset the wrapper assumes in the first cycle):
//  A1 rank_perm   for every set, the LRU ranks of its valid ways are distinct
//                 and below the number of valid ways.
//  A2 tag_unique  for every set, no two valid ways hold the same tag.
//  A3 rsp_valid   rsp_valid is 1 exactly two cycles after an accepted request
//                 (latency 2, issue 29) that no reset followed.
//  A4 rsp_zero    the response outputs are all zero while rsp_valid is 0.
//  A5 outcome     rsp_outcome is one of the seven codes 0..6.
//  A6 evict_addr  rsp_evict_addr is 0 unless rsp_evict_valid; otherwise a
//                 line address (offset bits 0) of the request's set.
//  A7 evict_kind  only MISS, BYPASS and WRITE_EVICT report an eviction, and
//                 WRITE_MISS answers way 0.
//  A8 resv_fail   RESV_FAIL answers way 0 and only follows a load whose
//                 req_resv, two cycles before, reserved every way.
`default_nettype none
module ba_tag_array_props(
    input wire clock,
    input wire reset,
    input wire req_valid,
    input wire [31:0] req_addr,
    input wire req_write,
    input wire req_prefetch,
    input wire [3:0] req_resv,
    input wire flush
);
    localparam NS = 2;   // sets
    localparam NW = 4;   // ways
    localparam R = 2;    // rank bits
    localparam T = 24;   // tag bits

    wire rsp_valid;
    wire [2:0] rsp_outcome;
    wire [1:0] rsp_way;
    wire rsp_evict_valid;
    wire [31:0] rsp_evict_addr;

    ba_tag_array u(
        .clock(clock), .reset(reset), .req_valid(req_valid), .req_addr(req_addr),
        .req_write(req_write), .req_prefetch(req_prefetch), .req_resv(req_resv),
        .flush(flush),
        .rsp_valid(rsp_valid), .rsp_outcome(rsp_outcome), .rsp_way(rsp_way),
        .rsp_evict_valid(rsp_evict_valid), .rsp_evict_addr(rsp_evict_addr)
    );

    reg init = 1'b1;
    always @(posedge clock) init <= 1'b0;
    always @(*) if (init) assume(reset);

    (* keep, warpgen_probe = "u.ways__0.valid.q" *) wire [1:0] p_valid_0;
    (* keep, warpgen_probe = "u.ways__1.valid.q" *) wire [1:0] p_valid_1;
    (* keep, warpgen_probe = "u.ways__2.valid.q" *) wire [1:0] p_valid_2;
    (* keep, warpgen_probe = "u.ways__3.valid.q" *) wire [1:0] p_valid_3;
    (* keep, warpgen_probe = "u.ways__0.rank.mem[0:1]" *) wire [3:0] p_rank_0;
    (* keep, warpgen_probe = "u.ways__1.rank.mem[0:1]" *) wire [3:0] p_rank_1;
    (* keep, warpgen_probe = "u.ways__2.rank.mem[0:1]" *) wire [3:0] p_rank_2;
    (* keep, warpgen_probe = "u.ways__3.rank.mem[0:1]" *) wire [3:0] p_rank_3;
    (* keep, warpgen_probe = "u.ways__0.tag.mem[0:1]" *) wire [47:0] p_tag_0;
    (* keep, warpgen_probe = "u.ways__1.tag.mem[0:1]" *) wire [47:0] p_tag_1;
    (* keep, warpgen_probe = "u.ways__2.tag.mem[0:1]" *) wire [47:0] p_tag_2;
    (* keep, warpgen_probe = "u.ways__3.tag.mem[0:1]" *) wire [47:0] p_tag_3;

    wire [NW*NS-1:0] valid_all = {p_valid_3, p_valid_2, p_valid_1, p_valid_0};
    wire [NW*NS*R-1:0] rank_all = {p_rank_3, p_rank_2, p_rank_1, p_rank_0};
    wire [NW*NS*T-1:0] tag_all = {p_tag_3, p_tag_2, p_tag_1, p_tag_0};

    // A1 and A2, every set.
    reg rank_ok;
    reg tag_ok;
    integer s, i, j, k;
    always @(*) begin
        rank_ok = 1'b1;
        tag_ok = 1'b1;
        for (s = 0; s < NS; s = s + 1) begin
            k = 0;
            for (i = 0; i < NW; i = i + 1)
                if (valid_all[i*NS + s]) k = k + 1;
            for (i = 0; i < NW; i = i + 1) begin
                if (valid_all[i*NS + s] && rank_all[(i*NS + s)*R +: R] >= k)
                    rank_ok = 1'b0;
                for (j = i + 1; j < NW; j = j + 1)
                    if (valid_all[i*NS + s] && valid_all[j*NS + s]) begin
                        if (rank_all[(i*NS + s)*R +: R] == rank_all[(j*NS + s)*R +: R])
                            rank_ok = 1'b0;
                        if (tag_all[(i*NS + s)*T +: T] == tag_all[(j*NS + s)*T +: T])
                            tag_ok = 1'b0;
                    end
            end
        end
    end

    // The inputs of one and two cycles before (a response answers the
    // request of two edges before).
    reg past_acc = 1'b0;
    reg past_set = 1'b0;
    reg past_full_resv_load = 1'b0;
    reg past2_acc = 1'b0;
    reg past2_set = 1'b0;
    reg past2_full_resv_load = 1'b0;
    always @(posedge clock) begin
        past_acc <= req_valid & ~reset;
        past_set <= req_addr[7];
        past_full_resv_load <= !req_write && (req_resv == 4'hf);
        past2_acc <= past_acc & ~reset;
        past2_set <= past_set;
        past2_full_resv_load <= past_full_resv_load;
    end

    wire chk_rank_perm = init | rank_ok;
    wire chk_tag_unique = init | tag_ok;
    wire chk_rsp_valid = init | (rsp_valid == past2_acc);
    wire chk_rsp_zero = init | rsp_valid
        | (rsp_outcome == 3'd0 && rsp_way == 2'd0 && !rsp_evict_valid);
    wire chk_outcome_code = init | (rsp_outcome <= 3'd6);
    wire chk_evict_addr = init | (rsp_evict_valid
        ? (rsp_evict_addr[6:0] == 7'd0 && rsp_evict_addr[7] == past2_set)
        : (rsp_evict_addr == 32'd0));
    wire chk_evict_kind = init | !rsp_evict_valid
        | rsp_outcome == 3'd1 || rsp_outcome == 3'd2 || rsp_outcome == 3'd4;
    wire chk_wmiss_way0 = init | (rsp_outcome != 3'd5) | (rsp_way == 2'd0);
    wire chk_resv_fail = init | (rsp_outcome != 3'd6)
        | (rsp_way == 2'd0 && !rsp_evict_valid && past2_full_resv_load);

    always @(*) begin
        rank_perm: assert(chk_rank_perm);
        tag_unique: assert(chk_tag_unique);
        rsp_valid_follows_req: assert(chk_rsp_valid);
        rsp_zero: assert(chk_rsp_zero);
        outcome_code: assert(chk_outcome_code);
        evict_addr: assert(chk_evict_addr);
        evict_kind: assert(chk_evict_kind);
        wmiss_way0: assert(chk_wmiss_way0);
        resv_fail: assert(chk_resv_fail);
    end
endmodule
