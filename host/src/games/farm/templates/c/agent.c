/*
 * {{name}}: a Little Animal Farm agent in C (made by `arena new`).
 *
 * Each turn it buys one animal from the stock: a small dog if it has none, then the cheapest farm
 * animal it is missing. It pays with spare animals (it keeps one of each kind and never pays with
 * dogs), largest first, for exactly the worth of what it buys, so its offers are legal.
 * arena.h (the ABI v1 bindings) defines the exports; edit agent_trade and agent_accept.
 *
 * Build: clang --target=wasm32 -O2 -nostdlib -mbulk-memory -Wl,--no-entry -o {{name}}.wasm agent.c
 * Check: arena check {{name}}.wasm
 */
#include "arena.h"

/* Fills give[] with spare animals worth exactly one `target`; 1 on success. */
static int pay_for(const uint32_t *herd, int target, int32_t *give) {
    uint32_t need = ARENA_WORTH[target];
    for (int k = ARENA_HORSE; k >= ARENA_RABBIT; k--) {
        if (k == target || ARENA_WORTH[k] > need) continue;
        uint32_t spare = herd[k] > 0 ? herd[k] - 1 : 0;
        uint32_t n = need / ARENA_WORTH[k];
        if (n > spare) n = spare;
        give[k] = (int32_t)n;
        need -= n * ARENA_WORTH[k];
    }
    return need == 0;
}

static int try_buy(const arena_call *call, int target, arena_offer *answer) {
    if (call->obs->stock[target] == 0) return 0;
    int32_t give[ARENA_KINDS] = {0};
    if (!pay_for(arena_my_herd(call), target, give)) return 0;
    answer->kind = ARENA_OFFER_STOCK;
    for (int k = 0; k < ARENA_KINDS; k++) {
        answer->give[k] = give[k];
        answer->get[k] = k == target ? 1 : 0;
    }
    arena_log_num("buying kind ", target);
    return 1;
}

int agent_trade(const arena_call *call, arena_offer *answer) {
    const uint32_t *herd = arena_my_herd(call);
    if (herd[ARENA_SMALL_DOG] == 0 && try_buy(call, ARENA_SMALL_DOG, answer)) return 1;
    for (int k = ARENA_RABBIT; k <= ARENA_HORSE; k++)
        if (herd[k] == 0 && try_buy(call, k, answer)) return 1;
    return 0; /* pass */
}

int agent_accept(const arena_call *call) {
    (void)call;
    return 0; /* deny every offer */
}
