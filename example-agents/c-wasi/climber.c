/*
 * climber (C with WASI): the climber strategy written against wasi-libc, with printf debugging.
 *
 * Trade: each turn it buys one animal from the stock: a small dog if it has none, then a big dog
 * if it has none, then the cheapest farm animal it is missing. It pays with spare animals only
 * (one of each kind it owns is kept, dogs are never paid), largest first, for exactly the worth
 * of what it buys: every offer it makes is legal.
 * Accept: it accepts an offer from another player when the offer brings it a farm animal it is
 * missing, is worth at least what it costs, and is paid with spare animals only.
 *
 * printf output goes to the agent's debug log (stdout and stderr are captured per game).
 * stdout is fully buffered under WASI: the agent turns buffering off in agent_init.
 *
 * Build (clang, wasm-ld, wasi-libc and the wasm32 compiler-rt builtins):
 *   clang --target=wasm32-wasi -mexec-model=reactor -O2 -I ../../agent-sdk/c \
 *     -o climber-wasi.wasm climber.c
 */
#include <stdio.h>
#include <string.h>

#define ARENA_AGENT_INIT
#include "arena.h"

static const char *const NAMES[ARENA_KINDS] = {"rabbit", "sheep",     "pig",    "cow",
                                               "horse",  "small dog", "big dog"};

/* Spare animals of kind k: all but one; dogs are never spare. */
static uint32_t spare(const uint32_t *herd, int k) {
    if (k == ARENA_SMALL_DOG || k == ARENA_BIG_DOG || herd[k] == 0) return 0;
    return herd[k] - 1;
}

/* Fills give[] with spare animals worth exactly the worth of one `target`. */
static int pay_for(const uint32_t *herd, int target, int32_t give[ARENA_KINDS]) {
    uint32_t need = ARENA_WORTH[target];
    memset(give, 0, ARENA_KINDS * sizeof give[0]);
    for (int k = ARENA_HORSE; k >= ARENA_RABBIT; k--) {
        if (k == target || ARENA_WORTH[k] > need) continue;
        uint32_t n = need / ARENA_WORTH[k];
        if (n > spare(herd, k)) n = spare(herd, k);
        give[k] = (int32_t)n;
        need -= n * ARENA_WORTH[k];
    }
    return need == 0;
}

static int try_buy(const arena_call *call, int target, arena_offer *answer) {
    const uint32_t *herd = arena_my_herd(call);
    if (call->obs->stock[target] == 0 || !pay_for(herd, target, answer->give)) return 0;
    answer->kind = ARENA_OFFER_STOCK;
    memset(answer->get, 0, sizeof answer->get);
    answer->get[target] = 1;
    printf("round %u: buying a %s from the stock\n", call->env->round, NAMES[target]);
    return 1;
}

void agent_init(const arena_call *call, const arena_init_payload *init) {
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("seat %u of %u players, round cap %u\n", call->env->seat, call->env->players,
           init->round_cap);
}

int agent_trade(const arena_call *call, arena_offer *answer) {
    const uint32_t *herd = arena_my_herd(call);
    if (herd[ARENA_SMALL_DOG] == 0 && try_buy(call, ARENA_SMALL_DOG, answer)) return 1;
    if (herd[ARENA_BIG_DOG] == 0 && try_buy(call, ARENA_BIG_DOG, answer)) return 1;
    for (int k = ARENA_RABBIT; k <= ARENA_HORSE; k++)
        if (herd[k] == 0 && try_buy(call, k, answer)) return 1;
    return 0;
}

int agent_accept(const arena_call *call) {
    const arena_offer *o = &call->obs->offer;
    const uint32_t *herd = arena_my_herd(call);
    int brings_missing = 0;
    uint32_t gain = 0, cost = 0;
    for (int k = 0; k < ARENA_KINDS; k++) {
        if (o->give[k] < 0 || o->get[k] < 0) return 0;
        if ((uint32_t)o->get[k] > spare(herd, k)) return 0; /* would cost a dog or a last one */
        if (k <= ARENA_HORSE && o->give[k] > 0 && herd[k] == 0) brings_missing = 1;
        gain += (uint32_t)o->give[k] * ARENA_WORTH[k];
        cost += (uint32_t)o->get[k] * ARENA_WORTH[k];
    }
    int yes = brings_missing && gain >= cost;
    printf("round %u: seat %u offers %u for %u: %s\n", call->env->round, call->obs->trader, gain,
           cost, yes ? "accept" : "deny");
    return yes;
}
