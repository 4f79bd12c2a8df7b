/*
 * A Little Animal Farm agent in freestanding C (no libc): the example climber.c, and the agent.c
 * that `arena new --lang c` writes. arena.h (the ABI v1 bindings) defines the exports; edit
 * agent_trade and agent_accept.
 *
 * Each turn it buys one animal from the stock, in this order of wishes:
 *   1. a small dog if it has none (it guards the rabbits from the fox),
 *   2. a big dog if it has none (it guards the rest from the wolf),
 *   3. the cheapest farm animal it is missing (rabbit, sheep, pig, cow, horse).
 * It pays with spare animals only (it keeps one of each kind it owns and never pays with dogs),
 * largest first, for exactly the wish's worth, so every offer it makes is a legal trade.
 * It declines every offer from other players.
 *
 * Build (clang and wasm-ld), in example-agents/c/:
 *   clang --target=wasm32 -O2 -nostdlib -mbulk-memory -I ../../agent-sdk/c \
 *     -Wl,--no-entry -o climber.wasm climber.c
 * In a project of `arena new` (arena.h beside agent.c), the command it printed.
 */
#include "arena.h"

/* Farm kinds from the most to the least valuable: the order in which we pay. */
static const int PAY_ORDER[5] = {ARENA_HORSE, ARENA_COW, ARENA_PIG, ARENA_SHEEP, ARENA_RABBIT};

/* Fills give[] with spare animals of `herd` worth exactly the worth of `target`. 1 on success. */
static int pay_for(const uint32_t *herd, int target, int32_t *give) {
    uint32_t need = ARENA_WORTH[target];
    for (int i = 0; i < 5; i++) {
        int k = PAY_ORDER[i];
        if (k == target || ARENA_WORTH[k] > need) continue;
        uint32_t spare = herd[k] > 0 ? herd[k] - 1 : 0;
        uint32_t n = need / ARENA_WORTH[k];
        if (n > spare) n = spare;
        give[k] = (int32_t)n;
        need -= n * ARENA_WORTH[k];
    }
    return need == 0;
}

/* Offers to buy one `target` from the stock if the stock has one and we can pay. */
static int try_buy(const arena_call *call, int target, arena_offer *answer) {
    const uint32_t *herd = arena_my_herd(call);
    if (call->obs->stock[target] == 0) return 0;
    int32_t give[ARENA_KINDS] = {0};
    if (!pay_for(herd, target, give)) return 0;
    answer->kind = ARENA_OFFER_STOCK;
    for (int k = 0; k < ARENA_KINDS; k++) {
        answer->give[k] = give[k];
        answer->get[k] = k == target ? 1 : 0;
    }
    return 1;
}

int agent_trade(const arena_call *call, arena_offer *answer) {
    const uint32_t *herd = arena_my_herd(call);
    if (herd[ARENA_SMALL_DOG] == 0 && try_buy(call, ARENA_SMALL_DOG, answer)) {
        arena_log_num("buying a small dog, round ", call->env->round);
        return 1;
    }
    if (herd[ARENA_BIG_DOG] == 0 && try_buy(call, ARENA_BIG_DOG, answer)) {
        arena_log_num("buying a big dog, round ", call->env->round);
        return 1;
    }
    for (int k = ARENA_RABBIT; k <= ARENA_HORSE; k++) {
        if (herd[k] == 0 && try_buy(call, k, answer)) {
            arena_log_num("buying the missing kind ", k);
            return 1;
        }
    }
    return 0;
}

int agent_accept(const arena_call *call) {
    (void)call;
    return 0;
}
