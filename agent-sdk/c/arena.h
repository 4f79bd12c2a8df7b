/*
 * arena.h: write a Little Animal Farm agent for the arena in C (agent ABI v1).
 *
 * One header, no library. It works freestanding (clang --target=wasm32 -nostdlib) and with
 * wasi-libc (--target=wasm32-wasi). The byte layouts below are those of docs/ABI.md (the Rust
 * crate arena-abi is the reference); every field is little-endian and naturally aligned, so the
 * structs overlay the exchange buffer exactly (checked by the static asserts at the end).
 *
 * Use: include this header in exactly ONE .c file of your agent and define there
 *
 *     int agent_trade(const arena_call *call, arena_offer *answer);
 *         Before your roll. Fill *answer (it starts zeroed) and return 1 to offer it, or return 0
 *         to pass.
 *     int agent_accept(const arena_call *call);
 *         Another player offers you call->obs->offer (seat call->obs->trader). 1 accepts, 0 denies.
 *
 * and optionally, with `#define ARENA_AGENT_INIT` before the include,
 *
 *     void agent_init(const arena_call *call, const arena_init_payload *init);
 *         Once per game, before any other call: your seat, the number of players, a seed.
 *
 * The header then defines every export the host needs (arena_abi_version, arena_buffer,
 * arena_buffer_size, arena_init, farm_trade, farm_accept) with export_name attributes, so no
 * linker --export flags are required. Other .c files of the same agent may include the header
 * after `#define ARENA_NO_EXPORTS` to get the types and helpers only.
 *
 * Each game runs in a fresh instance: globals start from their initial values every game.
 */
#ifndef ARENA_H
#define ARENA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants ------------------------------------------------------------------------- */

#define ARENA_ABI_VERSION 1
#define ARENA_GAME_LITTLE_ANIMAL_FARM 1
#define ARENA_MIN_BUFFER_SIZE 8192
#ifndef ARENA_BUFFER_SIZE
#define ARENA_BUFFER_SIZE 16384 /* at least ARENA_MIN_BUFFER_SIZE; more keeps more old events */
#endif

/* Decisions (envelope field `decision`). */
#define ARENA_DECISION_INIT 0
#define ARENA_DECISION_TRADE 1
#define ARENA_DECISION_ACCEPT 2

/* Animal kinds: indices into every herd and offer array. */
#define ARENA_KINDS 7
#define ARENA_MAX_PLAYERS 6
enum arena_animal {
    ARENA_RABBIT = 0,
    ARENA_SHEEP = 1,
    ARENA_PIG = 2,
    ARENA_COW = 3,
    ARENA_HORSE = 4,
    ARENA_SMALL_DOG = 5,
    ARENA_BIG_DOG = 6
};

/* Worth of each kind in rabbits (the fixed exchange rates). A trade is legal when both sides are
 * worth the same and one side is exactly one animal. */
static const uint32_t ARENA_WORTH[ARENA_KINDS] = {1, 6, 12, 36, 72, 6, 36};

/* Offer kinds (arena_offer.kind). */
#define ARENA_OFFER_PASS 0
#define ARENA_OFFER_STOCK 1
#define ARENA_OFFER_PLAYER 2

/* trader value of an observation that carries no offer; seat value "the stock" in events. */
#define ARENA_NO_TRADER 0xFFFFFFFFu
#define ARENA_STOCK_SEAT 255

/* Event kinds (arena_event.kind); see docs/ABI.md for the meaning of seat/other/code. */
#define ARENA_EVENT_ANSWER 1
#define ARENA_EVENT_TRADE_FAILED 2
#define ARENA_EVENT_TRANSFER 3
#define ARENA_EVENT_ROLLED 4
#define ARENA_EVENT_WOLF 5
#define ARENA_EVENT_FOX 6
#define ARENA_EVENT_BRED 7
#define ARENA_EVENT_FAULT 8
#define ARENA_EVENT_FORFEIT 9
#define ARENA_EVENT_WIN 10
#define ARENA_EVENT_DRAW 11

/* ---- layouts --------------------------------------------------------------------------- */

/* The 32-byte header at the start of every call's buffer. */
typedef struct arena_envelope {
    uint32_t abi_version; /* 1 */
    uint32_t game;        /* 1 = Little Animal Farm */
    uint32_t decision;    /* ARENA_DECISION_* */
    uint32_t seat;        /* your seat, from 0 */
    uint32_t players;     /* number of players */
    uint32_t turn;        /* from 1; 0 at init */
    uint32_t round;       /* from 1; 0 at init */
    uint32_t payload_len; /* bytes after the envelope */
} arena_envelope;

/* A trade: your answer to farm_trade, and the offer shown to farm_accept. 64 bytes. */
typedef struct arena_offer {
    uint32_t kind;            /* ARENA_OFFER_PASS / _STOCK / _PLAYER */
    int32_t partner;          /* partner seat when kind == ARENA_OFFER_PLAYER */
    int32_t give[ARENA_KINDS]; /* what the trader gives */
    int32_t get[ARENA_KINDS];  /* what the trader asks for */
} arena_offer;

/* One event of the game so far. 32 bytes. */
typedef struct arena_event {
    uint8_t kind;  /* ARENA_EVENT_* */
    uint8_t seat;
    uint8_t other; /* another seat, or ARENA_STOCK_SEAT */
    uint8_t code;
    uint32_t animals[ARENA_KINDS];
} arena_event;

/* The Little Animal Farm observation (payload of farm_trade and farm_accept). */
typedef struct arena_observation {
    uint32_t to_move;                              /* seat whose turn it is */
    uint32_t out_mask;                             /* bit i set: seat i has forfeited */
    uint32_t stock[ARENA_KINDS];                   /* the stock */
    uint32_t herds[ARENA_MAX_PLAYERS][ARENA_KINDS]; /* herds of seats 0..5 */
    uint32_t event_count;                          /* events[] entries present */
    uint32_t events_dropped;                       /* older events left out (buffer full) */
    uint32_t trader;     /* accept: the seat that offers; trade: ARENA_NO_TRADER */
    arena_offer offer;   /* accept: the offer as given (give = what you receive); trade: zero */
    arena_event events[]; /* oldest first */
} arena_observation;

/* Payload of arena_init. */
typedef struct arena_init_payload {
    uint64_t seed;      /* for your own randomness: differs per seat and per game */
    uint32_t round_cap; /* the game is a draw after this many rounds */
    uint32_t reserved;
} arena_init_payload;

/* What the agent callbacks receive: the envelope and the observation (for trade and accept). */
typedef struct arena_call {
    const arena_envelope *env;
    const arena_observation *obs;
} arena_call;

/* ---- helpers ----------------------------------------------------------------------------- */

/* Your herd (counts per kind). */
static inline const uint32_t *arena_my_herd(const arena_call *c) {
    return c->obs->herds[c->env->seat];
}

/* Worth of a herd or offer side, in rabbits. */
static inline uint32_t arena_herd_worth(const uint32_t *herd) {
    uint32_t w = 0;
    for (int k = 0; k < ARENA_KINDS; k++) w += herd[k] * ARENA_WORTH[k];
    return w;
}

/* Appends bytes to your debug log (host import arena.log). Kept per game, bounded. */
__attribute__((import_module("arena"), import_name("log"))) void arena_log(const char *ptr,
                                                                            int32_t len);

/* Logs a NUL-terminated string. */
static inline void arena_log_str(const char *s) {
    int32_t n = 0;
    while (s[n]) n++;
    arena_log(s, n);
}

/* Logs a label and a number followed by a newline, e.g. arena_log_num("rabbits ", 7). */
static inline void arena_log_num(const char *label, int64_t v) {
    char digits[24];
    int i = (int)sizeof digits;
    uint64_t u = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
    digits[--i] = '\n';
    do {
        digits[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u && i > 1);
    if (v < 0) digits[--i] = '-';
    arena_log_str(label);
    arena_log(digits + i, (int32_t)sizeof digits - i);
}

/* ---- the exports ------------------------------------------------------------------------- */

#ifndef ARENA_NO_EXPORTS

int agent_trade(const arena_call *call, arena_offer *answer);
int agent_accept(const arena_call *call);
#ifdef ARENA_AGENT_INIT
void agent_init(const arena_call *call, const arena_init_payload *init);
#endif

/* The exchange buffer: the host writes each call's envelope and payload here. */
static unsigned char arena_exchange[ARENA_BUFFER_SIZE] __attribute__((aligned(16)));

__attribute__((export_name("arena_abi_version"))) int32_t arena_export_abi_version(void) {
    return ARENA_ABI_VERSION;
}

__attribute__((export_name("arena_buffer"))) int32_t arena_export_buffer(void) {
    return (int32_t)(uintptr_t)arena_exchange;
}

__attribute__((export_name("arena_buffer_size"))) int32_t arena_export_buffer_size(void) {
    return ARENA_BUFFER_SIZE;
}

static inline arena_call arena_call_from_buffer(void) {
    arena_call c;
    c.env = (const arena_envelope *)arena_exchange;
    c.obs = (const arena_observation *)(arena_exchange + sizeof(arena_envelope));
    return c;
}

/* Returns 0 to start; a nonzero result would refuse the game. */
__attribute__((export_name("arena_init"))) int32_t arena_export_init(int32_t len) {
    (void)len;
#ifdef ARENA_AGENT_INIT
    arena_call c = arena_call_from_buffer();
    c.obs = 0; /* no observation at init */
    agent_init(&c, (const arena_init_payload *)(arena_exchange + sizeof(arena_envelope)));
#endif
    return 0;
}

/* Returns 0 to pass, or 64 after writing the offer at the start of the buffer. */
__attribute__((export_name("farm_trade"))) int32_t arena_export_farm_trade(int32_t len) {
    (void)len;
    arena_call c = arena_call_from_buffer();
    arena_offer answer;
    unsigned char *a = (unsigned char *)&answer;
    for (unsigned i = 0; i < sizeof answer; i++) a[i] = 0;
    if (!agent_trade(&c, &answer)) return 0;
    if (answer.kind == ARENA_OFFER_PASS) return 0;
    /* The observation is no longer needed: the answer overwrites the buffer's start. */
    for (unsigned i = 0; i < sizeof answer; i++) arena_exchange[i] = a[i];
    return (int32_t)sizeof(arena_offer);
}

/* Returns 1 to accept, 0 to deny. */
__attribute__((export_name("farm_accept"))) int32_t arena_export_farm_accept(int32_t len) {
    (void)len;
    arena_call c = arena_call_from_buffer();
    return agent_accept(&c) ? 1 : 0;
}

#endif /* ARENA_NO_EXPORTS */

/* ---- layout checks ------------------------------------------------------------------------ */

#define ARENA_OFFSET_OF(t, f) __builtin_offsetof(t, f)
_Static_assert(sizeof(arena_envelope) == 32, "envelope is 32 bytes");
_Static_assert(sizeof(arena_offer) == 64, "offer is 64 bytes");
_Static_assert(ARENA_OFFSET_OF(arena_offer, get) == 36, "offer.get at 36");
_Static_assert(sizeof(arena_event) == 32, "event is 32 bytes");
_Static_assert(ARENA_OFFSET_OF(arena_observation, stock) == 8, "stock at 8");
_Static_assert(ARENA_OFFSET_OF(arena_observation, herds) == 36, "herds at 36");
_Static_assert(ARENA_OFFSET_OF(arena_observation, event_count) == 204, "event_count at 204");
_Static_assert(ARENA_OFFSET_OF(arena_observation, trader) == 212, "trader at 212");
_Static_assert(ARENA_OFFSET_OF(arena_observation, offer) == 216, "offer at 216");
_Static_assert(ARENA_OFFSET_OF(arena_observation, events) == 280, "events at 280");
_Static_assert(sizeof(arena_init_payload) == 16, "init payload is 16 bytes");

#ifdef __cplusplus
}
#endif

#endif /* ARENA_H */
