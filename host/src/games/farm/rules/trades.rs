//! The trade phase of a farm turn: the offer of the seat to move checked by the rules crate, put
//! to the partner player when it names one, and carried out; then the win check, and the dice.

use farm_rules::{check_offer, execute_trade, FailReason, Partner, Trade};

use super::{AcceptView, Answer, Phase, State};
use crate::game::{Answered, Outcome};
use crate::games::farm::event::{Event, Party};
use crate::games::farm::fault::Decision;

impl State {
    /// After the offer was settled: the game may be decided by forfeits, or won by the trade;
    /// else the dice are thrown.
    fn settled(&mut self, seat: usize) {
        if let Some(o) = self.standing_outcome() {
            return self.end_turn(Some(o));
        }
        if self.pos.herds[seat].is_winning() {
            let o = self.emit_outcome(Outcome::won(seat));
            return self.end_turn(o);
        }
        if let Some(p) = &mut self.playing {
            p.phase = Phase::Roll;
        }
    }

    /// Carries out a checked trade of `seat`.
    fn execute(&mut self, seat: usize, trade: &Trade) {
        let delivered = execute_trade(&mut self.pos, seat, trade);
        let other = match trade.partner {
            Partner::Stock => Party::Stock,
            Partner::Player(p) => Party::Player(p),
        };
        self.emit(Event::Transfer {
            from: Party::Player(seat),
            to: other,
            animals: trade.give,
        });
        self.emit(Event::Transfer {
            from: other,
            to: Party::Player(seat),
            animals: delivered,
        });
    }

    /// The trade decision of the seat to move.
    pub(super) fn trade(&mut self, seat: usize, answered: Answered<Answer>) {
        let offer = match answered {
            Answered::Answer(Answer::Offer(offer)) => offer,
            Answered::Answer(Answer::Accept(_)) => return self.settled(seat),
            Answered::Fault { fault, forfeit } => {
                if self.fault(seat, Decision::Trade, fault, forfeit) {
                    let o = self.standing_outcome();
                    return self.end_turn(o);
                }
                // A lost move: the turn goes on as after a pass (no one went out, so the game
                // is not decided by forfeits).
                return self.settled(seat);
            }
        };
        if let Some(p) = &mut self.playing {
            p.record.offer = Some(offer);
        }
        let trade = match check_offer(&self.pos, seat, &offer) {
            Ok(None) => return self.settled(seat),
            Ok(Some(trade)) => trade,
            Err(reason) => {
                self.emit(Event::TradeFailed { seat, reason });
                return self.settled(seat);
            }
        };
        if let Partner::Player(_) = trade.partner {
            if let Some(p) = &mut self.playing {
                p.phase = Phase::Accept(AcceptView {
                    trader: seat,
                    offer,
                    trade,
                });
            }
            return;
        }
        self.execute(seat, &trade);
        self.settled(seat)
    }

    /// The partner's answer to `view`.
    pub(super) fn accept(&mut self, partner: usize, view: AcceptView, answered: Answered<Answer>) {
        let seat = view.trader;
        match answered {
            Answered::Answer(Answer::Accept(accepted)) => {
                if let Some(p) = &mut self.playing {
                    p.record.answer = Some(accepted);
                }
                self.emit(Event::Answer {
                    seat: partner,
                    trader: seat,
                    accepted,
                });
                if accepted {
                    self.execute(seat, &view.trade);
                } else {
                    self.emit(Event::TradeFailed {
                        seat,
                        reason: FailReason::Declined,
                    });
                }
            }
            Answered::Answer(Answer::Offer(_)) => {}
            Answered::Fault { fault, forfeit } => {
                let out = self.fault(partner, Decision::Accept, fault, forfeit);
                let reason = if out {
                    FailReason::PartnerOut
                } else {
                    FailReason::Declined
                };
                self.emit(Event::TradeFailed { seat, reason });
            }
        }
        self.settled(seat)
    }
}
