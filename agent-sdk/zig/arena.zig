//! arena.zig: write a Little Animal Farm agent for the arena in Zig (agent ABI v1).
//!
//! The byte layouts below are those of docs/ABI.md (the Rust crate arena-abi is the reference):
//! every field is little-endian and naturally aligned, so these extern structs overlay the
//! exchange buffer exactly (checked at compile time at the end of this file).
//!
//! Use: in your root file, declare
//!
//!     pub fn trade(call: arena.Call, answer: *arena.Offer) bool   // true: offer *answer; false: pass
//!     pub fn accept(call: arena.Call) bool                        // call.obs.offer from call.obs.trader
//!     pub fn init(call: arena.Call, payload: *const arena.InitPayload) void  // optional
//!
//! and export them with `comptime { arena.exportAgent(@This()); }`. That defines every export the
//! host needs (arena_abi_version, arena_buffer, arena_buffer_size, arena_init, farm_trade,
//! farm_accept). Each game runs in a fresh instance, so globals start anew every game.
//!
//! Build for wasm32-freestanding, see docs/languages/zig.md.

const std = @import("std");

pub const abi_version: i32 = 1;
pub const min_buffer_size = 8192;
/// Size of the exchange buffer this module exports (more than the minimum keeps more old events).
pub const buffer_size = 16384;

pub const kinds = 7;
pub const max_players = 6;

/// Animal kinds: indices into herds and offers.
pub const Animal = enum(u3) {
    rabbit = 0,
    sheep = 1,
    pig = 2,
    cow = 3,
    horse = 4,
    small_dog = 5,
    big_dog = 6,

    pub fn index(self: Animal) usize {
        return @intFromEnum(self);
    }
};

/// Worth of each kind in rabbits (the fixed exchange rates). A trade is legal when both sides
/// are worth the same and one side is exactly one animal.
pub const worth = [kinds]u32{ 1, 6, 12, 36, 72, 6, 36 };

pub const Decision = enum(u32) { init = 0, trade = 1, accept = 2, _ };

/// Offer kinds.
pub const offer_pass: u32 = 0;
pub const offer_stock: u32 = 1;
pub const offer_player: u32 = 2;

/// `trader` of an observation without an offer; the stock's seat in events.
pub const no_trader: u32 = 0xFFFF_FFFF;
pub const stock_seat: u8 = 255;

/// Event kinds (Event.kind); docs/ABI.md gives the meaning of seat, other and code for each.
pub const EventKind = struct {
    pub const answer: u8 = 1;
    pub const trade_failed: u8 = 2;
    pub const transfer: u8 = 3;
    pub const rolled: u8 = 4;
    pub const wolf: u8 = 5;
    pub const fox: u8 = 6;
    pub const bred: u8 = 7;
    pub const fault: u8 = 8;
    pub const forfeit: u8 = 9;
    pub const win: u8 = 10;
    pub const draw: u8 = 11;
};

/// The 32-byte header at the start of every call.
pub const Envelope = extern struct {
    abi_version: u32,
    game: u32,
    decision: u32,
    /// Your seat, from 0.
    seat: u32,
    players: u32,
    /// From 1; 0 at init.
    turn: u32,
    /// From 1; 0 at init.
    round: u32,
    payload_len: u32,
};

/// A trade: the answer of farm_trade, and the offer shown to farm_accept (64 bytes).
pub const Offer = extern struct {
    kind: u32 = offer_pass,
    /// Partner seat when kind == offer_player.
    partner: i32 = 0,
    /// What the trader gives.
    give: [kinds]i32 = [_]i32{0} ** kinds,
    /// What the trader asks for.
    get: [kinds]i32 = [_]i32{0} ** kinds,
};

/// One event of the game so far (32 bytes).
pub const Event = extern struct {
    kind: u8,
    seat: u8,
    other: u8,
    code: u8,
    animals: [kinds]u32,
};

/// The Little Animal Farm observation: the payload of farm_trade and farm_accept.
pub const Observation = extern struct {
    to_move: u32,
    /// Bit i set: seat i has forfeited.
    out_mask: u32,
    stock: [kinds]u32,
    herds: [max_players][kinds]u32,
    event_count: u32,
    events_dropped: u32,
    /// accept: the seat that offers; trade: no_trader.
    trader: u32,
    /// accept: the offer as given (give = what you receive); trade: zero.
    offer: Offer,

    /// The events that follow the fixed part, oldest first.
    pub fn events(self: *const Observation) []const Event {
        const first: [*]const Event = @ptrCast(@alignCast(@as([*]const u8, @ptrCast(self)) + @sizeOf(Observation)));
        return first[0..self.event_count];
    }
};

/// Payload of arena_init.
pub const InitPayload = extern struct {
    /// For your own randomness: differs per seat and per game.
    seed: u64,
    /// The game is a draw after this many rounds.
    round_cap: u32,
    reserved: u32,
};

/// What the agent's functions receive.
pub const Call = struct {
    env: *const Envelope,
    /// Meaningless at init.
    obs: *const Observation,

    /// Your herd.
    pub fn myHerd(self: Call) *const [kinds]u32 {
        return &self.obs.herds[self.env.seat];
    }
};

/// The exchange buffer: the host writes each call's envelope and payload here.
pub var buffer: [buffer_size]u8 align(16) = undefined;

extern "arena" fn log(ptr: [*]const u8, len: usize) void;

/// Appends bytes to your debug log (kept per game, bounded).
pub fn logBytes(msg: []const u8) void {
    log(msg.ptr, msg.len);
}

/// Formats a line into the debug log (cut at 256 bytes).
pub fn logf(comptime fmt: []const u8, args: anytype) void {
    var line: [256]u8 = undefined;
    const text = std.fmt.bufPrint(&line, fmt ++ "\n", args) catch line[0..];
    logBytes(text);
}

fn current() Call {
    return .{
        .env = @ptrCast(@alignCast(&buffer)),
        .obs = @ptrCast(@alignCast(buffer[@sizeOf(Envelope)..].ptr)),
    };
}

/// Defines the ABI v1 exports for the agent whose functions are declared in `Agent`.
pub fn exportAgent(comptime Agent: type) void {
    const S = struct {
        fn abiVersion() callconv(.c) i32 {
            return abi_version;
        }
        fn bufferPtr() callconv(.c) i32 {
            return @intCast(@intFromPtr(&buffer));
        }
        fn bufferSize() callconv(.c) i32 {
            return buffer_size;
        }
        fn init(len: i32) callconv(.c) i32 {
            _ = len;
            if (@hasDecl(Agent, "init")) {
                const payload: *const InitPayload = @ptrCast(@alignCast(buffer[@sizeOf(Envelope)..].ptr));
                Agent.init(current(), payload);
            }
            return 0;
        }
        fn farmTrade(len: i32) callconv(.c) i32 {
            _ = len;
            var answer = Offer{};
            if (!Agent.trade(current(), &answer) or answer.kind == offer_pass) return 0;
            // The observation is no longer needed: the answer goes at the buffer's start.
            @memcpy(buffer[0..@sizeOf(Offer)], std.mem.asBytes(&answer));
            return @sizeOf(Offer);
        }
        fn farmAccept(len: i32) callconv(.c) i32 {
            _ = len;
            return if (Agent.accept(current())) 1 else 0;
        }
    };
    @export(&S.abiVersion, .{ .name = "arena_abi_version" });
    @export(&S.bufferPtr, .{ .name = "arena_buffer" });
    @export(&S.bufferSize, .{ .name = "arena_buffer_size" });
    @export(&S.init, .{ .name = "arena_init" });
    @export(&S.farmTrade, .{ .name = "farm_trade" });
    @export(&S.farmAccept, .{ .name = "farm_accept" });
}

comptime {
    std.debug.assert(@sizeOf(Envelope) == 32);
    std.debug.assert(@sizeOf(Offer) == 64);
    std.debug.assert(@offsetOf(Offer, "get") == 36);
    std.debug.assert(@sizeOf(Event) == 32);
    std.debug.assert(@offsetOf(Observation, "herds") == 36);
    std.debug.assert(@offsetOf(Observation, "event_count") == 204);
    std.debug.assert(@offsetOf(Observation, "trader") == 212);
    std.debug.assert(@offsetOf(Observation, "offer") == 216);
    std.debug.assert(@sizeOf(Observation) == 280);
    std.debug.assert(@sizeOf(InitPayload) == 16);
    std.debug.assert(buffer_size >= min_buffer_size);
}
