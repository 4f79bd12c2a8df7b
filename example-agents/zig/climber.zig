//! climber: a Little Animal Farm agent in Zig.
//!
//! Each turn it buys one animal from the stock: a small dog if it has none, then a big dog if it
//! has none, then the cheapest farm animal it is missing. It pays with spare animals only (it
//! keeps one of each kind it owns and never pays with dogs), largest first, for exactly the worth
//! of what it buys, so every offer is legal. It declines offers from other players.
//!
//! Build: see docs/languages/zig.md.
const arena = @import("arena");

comptime {
    arena.exportAgent(@This());
}

/// Spare animals of kind k: all but one.
fn spare(herd: *const [arena.kinds]u32, k: usize) u32 {
    return if (herd[k] > 0) herd[k] - 1 else 0;
}

/// Fills `answer` with a stock trade buying one `target`, paid exactly with spare animals.
fn tryBuy(call: arena.Call, target: arena.Animal, answer: *arena.Offer) bool {
    const t = target.index();
    if (call.obs.stock[t] == 0) return false;
    const herd = call.myHerd();
    var need = arena.worth[t];
    var give = [_]i32{0} ** arena.kinds;
    // Horse (4) down to rabbit (0): dogs (5, 6) are never paid.
    var k: usize = @intFromEnum(arena.Animal.horse) + 1;
    while (k > 0) {
        k -= 1;
        if (k == t or arena.worth[k] > need) continue;
        const n = @min(need / arena.worth[k], spare(herd, k));
        give[k] = @intCast(n);
        need -= n * arena.worth[k];
    }
    if (need != 0) return false;
    answer.kind = arena.offer_stock;
    answer.give = give;
    answer.get = [_]i32{0} ** arena.kinds;
    answer.get[t] = 1;
    arena.logf("round {d}: buying a {s}", .{ call.env.round, @tagName(target) });
    return true;
}

pub fn trade(call: arena.Call, answer: *arena.Offer) bool {
    const herd = call.myHerd();
    for ([_]arena.Animal{ .small_dog, .big_dog }) |dog| {
        if (herd[dog.index()] == 0 and tryBuy(call, dog, answer)) return true;
    }
    for ([_]arena.Animal{ .rabbit, .sheep, .pig, .cow, .horse }) |kind| {
        if (herd[kind.index()] == 0 and tryBuy(call, kind, answer)) return true;
    }
    return false;
}

pub fn accept(call: arena.Call) bool {
    _ = call;
    return false;
}
