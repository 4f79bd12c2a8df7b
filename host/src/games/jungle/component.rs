//! A component agent (world `arena:games/jungle` of `wit/`) in a Jungle seat: the observation
//! becomes the WIT `view`, the typed move the rules' move. The budgets, faults and log are the
//! sandbox's ([`WasmPlayer::call_component`]), the clock's allowance too.

use arena_abi::jungle::Played;
use jungle_rules::{Kind, Move, Piece, Side, Square};

use super::rules::Ask;
use crate::game::{Fault, FaultKind};
use crate::sandbox::WasmPlayer;

crate::game::component_world! {
    /// World `arena:games/jungle`, for the sandbox.
    pub struct JungleWorld for "jungle" in mod bindings {
        world: Jungle,
        pre: JunglePre,
        exports: ["init", "choose-move"],
    }
}

use bindings::arena::games::jungle_types as wit;

pub(crate) fn choose(player: &mut WasmPlayer, ask: &Ask) -> Result<Move, Fault> {
    let view = view(ask);
    let answer = player.call_component("choose-move", |store, world| {
        instance(world)?.call_choose_move(store, &view)
    })?;
    let square = |i: u8, which: &str| {
        Square::from_index(i).ok_or_else(|| {
            Fault::new(
                FaultKind::BadAnswer,
                format!("choose-move answered {i} as the {which} square, not a square (0 to 62)"),
            )
        })
    };
    Ok(Move::new(
        square(answer.from_square, "from")?,
        square(answer.to_square, "to")?,
    ))
}

fn side(s: Side) -> wit::Side {
    match s {
        Side::First => wit::Side::First,
        Side::Second => wit::Side::Second,
    }
}

fn piece(p: Piece) -> wit::Piece {
    wit::Piece {
        side: side(p.side),
        kind: match p.kind {
            Kind::Rat => wit::Kind::Rat,
            Kind::Cat => wit::Kind::Cat,
            Kind::Dog => wit::Kind::Dog,
            Kind::Wolf => wit::Kind::Wolf,
            Kind::Leopard => wit::Kind::Leopard,
            Kind::Tiger => wit::Kind::Tiger,
            Kind::Lion => wit::Kind::Lion,
            Kind::Elephant => wit::Kind::Elephant,
        },
    }
}

fn a_move(m: Move) -> wit::Move {
    wit::Move {
        from_square: m.from.index() as u8,
        to_square: m.to.index() as u8,
    }
}

fn ply(p: &Played) -> wit::Ply {
    wit::Ply {
        played: p.mv.map(a_move),
        piece: p.piece.map(piece),
        captured: p.captured.map(piece),
    }
}

fn view(ask: &Ask) -> wit::View {
    let obs = ask.observation;
    wit::View {
        seat: ask.seat as u32,
        turn: ask.turn,
        round: ask.round,
        side: side(obs.side),
        ply: obs.ply,
        plies_since_capture: obs.plies_since_capture,
        draw_limit: obs.draw_limit,
        ply_cap: obs.ply_cap,
        clock: wit::Clock {
            mine: obs.clock.mine,
            theirs: obs.clock.theirs,
            increment: obs.clock.increment,
            decision_cap: obs.clock.decision_cap,
        },
        board: obs
            .board
            .iter()
            .map(|&c| Piece::from_code(c).map(piece))
            .collect(),
        legal: obs.legal.iter().copied().map(a_move).collect(),
        recent: obs.played().iter().map(ply).collect(),
    }
}
