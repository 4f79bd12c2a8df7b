//! {{name}}: a Little Animal Farm agent in Zig (made by `arena new`).
//!
//! Each turn it buys one animal from the stock: a small dog if it has none, then the cheapest farm
//! animal it is missing. It pays with spare animals (it keeps one of each kind and never pays with
//! dogs), largest first, for exactly the worth of what it buys, so its offers are legal.
//! arena.zig (the ABI v1 bindings) defines the exports; edit `trade` and `accept`.
//!
//! Build: zig build-exe agent.zig -target wasm32-freestanding -O ReleaseFast -fno-entry -rdynamic -femit-bin={{name}}.wasm
//! (with Zig from PyPI, `pip install ziglang`: `python3 -m ziglang build-exe ...`, the same arguments)
//! Check: arena check {{name}}.wasm
const arena = @import("arena.zig");

comptime {
    arena.exportAgent(@This());
}

fn tryBuy(call: arena.Call, target: arena.Animal, answer: *arena.Offer) bool {
    const t = target.index();
    if (call.obs.stock[t] == 0) return false;
    const herd = call.myHerd();
    var need = arena.worth[t];
    var k: usize = arena.Animal.horse.index() + 1;
    while (k > 0) {
        k -= 1;
        if (k == t or arena.worth[k] > need) continue;
        const spare = if (herd[k] > 0) herd[k] - 1 else 0;
        const n = @min(need / arena.worth[k], spare);
        answer.give[k] = @intCast(n);
        need -= n * arena.worth[k];
    }
    if (need != 0) {
        answer.* = .{};
        return false;
    }
    answer.kind = arena.offer_stock;
    answer.get[t] = 1;
    arena.logf("round {d}: buying a {s}", .{ call.env.round, @tagName(target) });
    return true;
}

pub fn trade(call: arena.Call, answer: *arena.Offer) bool {
    const herd = call.myHerd();
    if (herd[arena.Animal.small_dog.index()] == 0 and tryBuy(call, .small_dog, answer)) return true;
    for ([_]arena.Animal{ .rabbit, .sheep, .pig, .cow, .horse }) |kind| {
        if (herd[kind.index()] == 0 and tryBuy(call, kind, answer)) return true;
    }
    return false; // pass
}

pub fn accept(call: arena.Call) bool {
    _ = call;
    return false; // deny every offer
}
