//! `bench-requests`: writes the request files of `bench/requests/` by playing games
//! through the service's own handlers (in process, no server), with fixed seeds.
//!
//! - **Dou Dizhu**: `--ddz-games` deals from seeded shuffles. Each seat bids with
//!   `SuggestDouDizhuBid` (starting seat = game number mod 3; a deal nobody bids on is
//!   dealt again); then every card-play decision is made by `SuggestDouDizhuPlay`
//!   (heuristic) until a hand is empty. Every bid request and every play decision is a
//!   state; play states are tagged `opening` (the landlord's first lead), `endgame`
//!   (the player to move or an opponent holds at most 5 cards), else `lead` (a free
//!   lead) or `follow`. From them: `doudizhu_bid.jsonl`, `doudizhu_play.jsonl`,
//!   `doudizhu_play_search.jsonl` (the same states in SEARCH mode with a 100 ms
//!   budget) and `doudizhu_list.jsonl` (`ListDouDizhuPlays` of the hand, beating the
//!   play to beat).
//! - **Mahjong**: `--mahjong-games` seeded walls under GENERAL (half), RIICHI (3/10)
//!   and SICHUAN (1/5). The player draws and discards the first entry of
//!   `AnalyzeMahjongHand`'s discards (lowest shanten, then most ukeire); the three
//!   others discard what they draw. Each of their discards is offered to the player,
//!   who pons it a quarter of the times it can. Every 14-tile state (tagged
//!   `opening` / `early` / `mid` / `late` by turn, and `shanten<N>`) feeds
//!   `mahjong_discard.jsonl` and `mahjong_analyze.jsonl`; every offered discard
//!   `mahjong_call.jsonl`. The opening deals are kept for every shanten 0..=6 found,
//!   so the files hold 3–6-shanten openings as well as the 0–2 of later turns.
//! - **Gomoku**: `--gomoku-games` self-play games of the engine for each of freestyle
//!   15x15, freestyle 20x20 (Gomocup's board), standard 15x15 and renju 15x15, each from
//!   the centre plus 1–3 seeded stones within two points of it. The engine is called
//!   directly with a node limit (not through the handler, whose limit is a time budget)
//!   so that the games, and the files, are the same on every machine. Every position
//!   before a move is a state, tagged `RULESIZE/PHASE` (`renju15/middle`): `opening` (under 8 stones),
//!   `middle` (8–40), `late` (over 40). Every other state is written as stone lists
//!   with `to_move`, the rest as move sequences. From them: `gomoku_move.jsonl`
//!   (SuggestGomokuMove at the server's default budget) and `gomoku_position.jsonl`
//!   (AnalyzeGomokuPosition).
//!
//! Lines are picked per tag with the same seeded generator, so a run with the same
//! flags on the same engines writes the same files. Usage:
//!
//! ```sh
//! cargo run --release --bin bench-requests -- --out bench/requests
//! cargo run --release --bin bench-requests -- --only gomoku   # one game's files
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Parser;
use gameai::gomoku::point::format_sequence;
use gameai::gomoku::search::{Limits, Searcher};
use gameai::gomoku::{Board, Color, Point, Rule};
use gameai::proto;
use gameai::proto::dou_dizhu_service_server::DouDizhuService;
use gameai::proto::mahjong_service_server::MahjongService;
use gameai::service::doudizhu::DouDizhuApi;
use gameai::service::mahjong::MahjongApi;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tonic::Request;

#[derive(Debug, Parser)]
#[command(
    name = "bench-requests",
    about = "Write bench/requests/*.jsonl from seeded games"
)]
struct Cli {
    /// Directory to write the files into.
    #[arg(long, default_value = "bench/requests")]
    out: PathBuf,
    /// Seed of every shuffle and pick.
    #[arg(long, default_value_t = 20261130)]
    seed: u64,
    /// Dou Dizhu deals to play.
    #[arg(long, default_value_t = 250)]
    ddz_games: u32,
    /// Mahjong walls to play.
    #[arg(long, default_value_t = 3000)]
    mahjong_games: u32,
    /// Gomoku self-play games per rule and board.
    #[arg(long, default_value_t = 12)]
    gomoku_games: u32,
    /// Engine nodes per gomoku move (a node limit keeps the games deterministic).
    #[arg(long, default_value_t = 6_000)]
    gomoku_nodes: u64,
    /// Lines kept per tag and file.
    #[arg(long, default_value_t = 100)]
    per_tag: usize,
    /// The games whose files to write (comma-separated: doudizhu, mahjong, gomoku).
    #[arg(long, value_delimiter = ',', default_value = "doudizhu,mahjong,gomoku")]
    only: Vec<String>,
}

/// One line of a request file.
struct Line {
    method: &'static str,
    tag: String,
    source: String,
    json: serde_json::Value,
}

/// The proto JSON mapping of `message` (field names as in the proto, defaults left out).
fn to_json(pool: &DescriptorPool, name: &str, message: &impl Message) -> serde_json::Value {
    let desc = pool
        .get_message_by_name(name)
        .expect("message in the contract");
    let dynamic = DynamicMessage::decode(desc, message.encode_to_vec().as_slice())
        .expect("a message decodes as itself");
    let options = SerializeOptions::new().use_proto_field_name(true);
    dynamic
        .serialize_with_options(serde_json::value::Serializer, &options)
        .expect("serializes")
}

/// Keeps at most `per_tag` lines of each tag (a seeded pick), tags in name order.
fn pick(lines: Vec<Line>, per_tag: usize, rng: &mut StdRng) -> Vec<Line> {
    let mut by_tag: BTreeMap<String, Vec<Line>> = BTreeMap::new();
    for l in lines {
        by_tag.entry(l.tag.clone()).or_default().push(l);
    }
    let mut out = Vec::new();
    for (_, mut group) in by_tag {
        group.shuffle(rng);
        group.truncate(per_tag);
        out.extend(group);
    }
    out
}

fn write(path: &Path, lines: &[Line]) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    for l in lines {
        // Written by hand so the keys keep this order (serde_json sorts its maps).
        let quote = |s: &str| serde_json::Value::from(s).to_string();
        writeln!(
            f,
            "{{\"method\":{},\"tag\":{},\"source\":{},\"request\":{}}}",
            quote(l.method),
            quote(&l.tag),
            quote(&l.source),
            l.json
        )?;
    }
    f.flush()?;
    eprintln!("{}: {} lines", path.display(), lines.len());
    Ok(())
}

// ---------------------------------------------------------------------------------
// Dou Dizhu

const DDZ_RANKS: &str = "3456789TJQKA2";

/// Removes `cards` (canonical notation) from `hand`, one character per card.
fn remove_cards(hand: &mut Vec<char>, cards: &str) {
    for c in cards.chars() {
        let i = hand
            .iter()
            .position(|&h| h == c)
            .expect("played cards are held");
        hand.remove(i);
    }
}

/// Canonical notation: ascending rank order.
fn cards(hand: &[char]) -> String {
    let order = |c: &char| "3456789TJQKA2XD".find(*c).expect("a card");
    let mut sorted = hand.to_vec();
    sorted.sort_by_key(order);
    sorted.into_iter().collect()
}

struct DdzStates {
    bids: Vec<Line>,
    plays: Vec<(String, proto::SuggestDouDizhuPlayRequest, String)>,
}

async fn play_ddz(game: u32, rng: &mut StdRng, states: &mut DdzStates, pool: &DescriptorPool) {
    let api = DouDizhuApi::default();
    let mut deck: Vec<char> = DDZ_RANKS.chars().flat_map(|c| [c; 4]).collect();
    deck.extend(['X', 'D']);
    loop {
        deck.shuffle(rng);
        let mut hands: Vec<Vec<char>> =
            (0..3).map(|p| deck[p * 17..p * 17 + 17].to_vec()).collect();
        let bottom = cards(&deck[51..]);
        let first = (game % 3) as usize;
        let mut bids = Vec::new();
        let (mut highest, mut landlord) = (0, None);
        for turn in 0..3 {
            let player = (first + turn) % 3;
            let request = proto::SuggestDouDizhuBidRequest {
                hand: cards(&hands[player]),
                bids: bids.clone(),
                ..Default::default()
            };
            states.bids.push(Line {
                method: "gameai.v1.DouDizhuService/SuggestDouDizhuBid",
                tag: ["first", "second", "third"][turn].to_string(),
                source: format!("game {game} bid {turn}"),
                json: to_json(pool, "gameai.v1.SuggestDouDizhuBidRequest", &request),
            });
            // The games are driven by the threshold bidder and the heuristic (fast and
            // reproducible); the files hold the requests as a caller sends them.
            let heuristic = proto::SuggestDouDizhuBidRequest {
                mode: proto::SearchMode::Heuristic as i32,
                ..request
            };
            let bid = api
                .suggest_dou_dizhu_bid(Request::new(heuristic))
                .await
                .expect("a bid for a dealt hand")
                .into_inner()
                .bid;
            bids.push(bid);
            if bid > highest {
                (highest, landlord) = (bid, Some(player));
            }
            if bid == 3 {
                break;
            }
        }
        let Some(landlord) = landlord else {
            continue; // nobody bid: deal again
        };
        hands[landlord].extend(bottom.chars());
        // Turn order: landlord, landlord_down, landlord_up.
        let order = [landlord, (landlord + 1) % 3, (landlord + 2) % 3];
        let seats = [
            proto::Seat::Landlord,
            proto::Seat::LandlordDown,
            proto::Seat::LandlordUp,
        ];
        let mut history: Vec<String> = Vec::new();
        loop {
            let turn = history.len() % 3;
            let player = order[turn];
            let left: Vec<usize> = order.iter().map(|&p| hands[p].len()).collect();
            let last_real = history.iter().rposition(|h| !h.is_empty());
            let free = last_real.is_none_or(|j| history.len() - j - 1 == 2);
            let opponents_min = (0..3)
                .filter(|&t| t != turn && (turn == 0 || t == 0))
                .map(|t| left[t])
                .min()
                .unwrap_or(20);
            let tag = if history.is_empty() {
                "opening"
            } else if left[turn] <= 5 || opponents_min <= 5 {
                "endgame"
            } else if free {
                "lead"
            } else {
                "follow"
            };
            let to_beat = match last_real {
                Some(j) if !free => history[j].clone(),
                _ => String::new(),
            };
            let request = proto::SuggestDouDizhuPlayRequest {
                hand: cards(&hands[player]),
                seat: seats[turn] as i32,
                landlord_cards: bottom.clone(),
                history: history.clone(),
                ..Default::default()
            };
            states.plays.push((
                tag.to_string(),
                request.clone(),
                format!("game {game} move {}|{to_beat}", history.len()),
            ));
            let play = api
                .suggest_dou_dizhu_play(Request::new(proto::SuggestDouDizhuPlayRequest {
                    mode: proto::SearchMode::Heuristic as i32,
                    ..request
                }))
                .await
                .expect("a play for a consistent state")
                .into_inner()
                .play
                .expect("a play");
            remove_cards(&mut hands[player], &play.cards);
            history.push(play.cards);
            if hands[player].is_empty() {
                return;
            }
        }
    }
}

async fn ddz_files(cli: &Cli, pool: &DescriptorPool) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(cli.seed);
    let mut states = DdzStates {
        bids: Vec::new(),
        plays: Vec::new(),
    };
    for game in 0..cli.ddz_games {
        play_ddz(game, &mut rng, &mut states, pool).await;
    }
    write(
        &cli.out.join("doudizhu_bid.jsonl"),
        &pick(states.bids, cli.per_tag, &mut rng),
    )?;
    let mut plays = Vec::new();
    let mut search = Vec::new();
    let mut lists = Vec::new();
    for (tag, request, source) in states.plays {
        let (source, to_beat) = source.split_once('|').expect("source|to_beat");
        plays.push(Line {
            method: "gameai.v1.DouDizhuService/SuggestDouDizhuPlay",
            tag: tag.clone(),
            source: source.to_string(),
            json: to_json(pool, "gameai.v1.SuggestDouDizhuPlayRequest", &request),
        });
        let searching = proto::SuggestDouDizhuPlayRequest {
            mode: proto::SearchMode::Search as i32,
            budget_ms: 100,
            ..request.clone()
        };
        search.push(Line {
            method: "gameai.v1.DouDizhuService/SuggestDouDizhuPlay",
            tag: tag.clone(),
            source: source.to_string(),
            json: to_json(pool, "gameai.v1.SuggestDouDizhuPlayRequest", &searching),
        });
        let list = proto::ListDouDizhuPlaysRequest {
            hand: request.hand.clone(),
            last_play: to_beat.to_string(),
            ..Default::default()
        };
        lists.push(Line {
            method: "gameai.v1.DouDizhuService/ListDouDizhuPlays",
            tag,
            source: source.to_string(),
            json: to_json(pool, "gameai.v1.ListDouDizhuPlaysRequest", &list),
        });
    }
    write(
        &cli.out.join("doudizhu_play.jsonl"),
        &pick(plays, cli.per_tag, &mut rng),
    )?;
    let search = pick(search, cli.per_tag / 4, &mut rng);
    write(&cli.out.join("doudizhu_play_search.jsonl"), &search)?;
    write(
        &cli.out.join("doudizhu_list.jsonl"),
        &pick(lists, cli.per_tag, &mut rng),
    )?;
    Ok(())
}

// ---------------------------------------------------------------------------------
// Mahjong

/// Tile kinds 0..34: 1m..9m, 1p..9p, 1s..9s, 1z..7z.
fn mpsz(counts: &[u8; 34]) -> String {
    let mut out = String::new();
    for (suit, letter) in ["m", "p", "s", "z"].iter().enumerate() {
        let size = if suit == 3 { 7 } else { 9 };
        let mut digits = String::new();
        for rank in 0..size {
            for _ in 0..counts[suit * 9 + rank] {
                digits.push(char::from(b'1' + rank as u8));
            }
        }
        if !digits.is_empty() {
            out.push_str(&digits);
            out.push_str(letter);
        }
    }
    out
}

fn tile_index(tile: &str) -> usize {
    let b = tile.as_bytes();
    let rank = usize::from(b[0] - b'0');
    let rank = if rank == 0 { 5 } else { rank };
    let suit = match b[1] {
        b'm' => 0,
        b'p' => 1,
        b's' => 2,
        _ => 3,
    };
    suit * 9 + rank - 1
}

fn tile_name(index: usize) -> String {
    format!("{}{}", index % 9 + 1, ["m", "p", "s", "z"][index / 9])
}

struct MjStates {
    discard: Vec<Line>,
    analyze: Vec<Line>,
    call: Vec<Line>,
}

struct MjPlayer {
    hand: [u8; 34],
    melds: Vec<proto::Meld>,
    visible: [u8; 34],
}

impl MjPlayer {
    fn request_parts(&self) -> (String, Vec<proto::Meld>, String) {
        (mpsz(&self.hand), self.melds.clone(), mpsz(&self.visible))
    }
}

async fn analyze(
    api: &MahjongApi,
    p: &MjPlayer,
    ruleset: i32,
) -> proto::AnalyzeMahjongHandResponse {
    let (hand, melds, visible) = p.request_parts();
    api.analyze_mahjong_hand(Request::new(proto::AnalyzeMahjongHandRequest {
        hand,
        melds,
        visible,
        ruleset,
    }))
    .await
    .expect("a consistent hand")
    .into_inner()
}

async fn play_mahjong(game: u32, rng: &mut StdRng, states: &mut MjStates, pool: &DescriptorPool) {
    let api = MahjongApi::default();
    let roll: f64 = rng.random();
    let (ruleset, kinds, dead_wall) = if roll < 0.5 {
        (proto::Ruleset::General, 34, 0)
    } else if roll < 0.8 {
        (proto::Ruleset::Riichi, 34, 14)
    } else {
        (proto::Ruleset::Sichuan, 27, 0)
    };
    let ruleset = ruleset as i32;
    let mut wall: Vec<usize> = (0..kinds).flat_map(|k| [k; 4]).collect();
    wall.shuffle(rng);
    let mut me = MjPlayer {
        hand: [0; 34],
        melds: Vec::new(),
        visible: [0; 34],
    };
    for _ in 0..13 {
        me.hand[wall.pop().unwrap()] += 1;
    }
    // The other three hands are dealt from the wall, unseen.
    wall.truncate(wall.len() - 39);
    if dead_wall > 0 {
        me.visible[wall[0]] += 1; // the dora indicator
    }
    let live = |wall: &Vec<usize>| wall.len().saturating_sub(dead_wall);
    let mut turn = 0u32;
    while live(&wall) > 0 {
        me.hand[wall.pop().unwrap()] += 1;
        let draws_left = (live(&wall) / 4) as u32;
        let analysis = analyze(&api, &me, ruleset).await;
        let phase = match turn {
            0 => "opening",
            1..=5 => "early",
            6..=11 => "mid",
            _ => "late",
        };
        let tag = format!("{phase}/shanten{}", analysis.shanten);
        let source = format!("game {game} turn {turn}");
        let (hand, melds, visible) = me.request_parts();
        states.analyze.push(Line {
            method: "gameai.v1.MahjongService/AnalyzeMahjongHand",
            tag: tag.clone(),
            source: source.clone(),
            json: to_json(
                pool,
                "gameai.v1.AnalyzeMahjongHandRequest",
                &proto::AnalyzeMahjongHandRequest {
                    hand: hand.clone(),
                    melds: melds.clone(),
                    visible: visible.clone(),
                    ruleset,
                },
            ),
        });
        states.discard.push(Line {
            method: "gameai.v1.MahjongService/SuggestMahjongDiscard",
            tag,
            source,
            json: to_json(
                pool,
                "gameai.v1.SuggestMahjongDiscardRequest",
                &proto::SuggestMahjongDiscardRequest {
                    hand,
                    melds,
                    visible,
                    draws_left: Some(draws_left),
                    ruleset,
                    ..Default::default()
                },
            ),
        });
        if analysis.is_winning {
            return;
        }
        let discard = tile_index(&analysis.discards[0].tile);
        me.hand[discard] -= 1;
        me.visible[discard] += 1;
        // The others (right, across, left) discard what they draw.
        for from in [proto::From::Right, proto::From::Across, proto::From::Left] {
            if live(&wall) == 0 {
                return;
            }
            let offered = wall.pop().unwrap();
            let waiting = analyze(&api, &me, ruleset).await;
            let (hand, melds, visible) = me.request_parts();
            states.call.push(Line {
                method: "gameai.v1.MahjongService/SuggestMahjongCall",
                tag: format!("shanten{}", waiting.shanten),
                source: format!("game {game} turn {turn} from {}", from.as_str_name()),
                json: to_json(
                    pool,
                    "gameai.v1.SuggestMahjongCallRequest",
                    &proto::SuggestMahjongCallRequest {
                        hand,
                        melds,
                        visible,
                        offered_tile: tile_name(offered),
                        from: from as i32,
                        draws_left: Some((live(&wall) / 4) as u32),
                        ruleset,
                        ..Default::default()
                    },
                ),
            });
            if me.hand[offered] >= 2 && me.melds.len() < 4 && rng.random_bool(0.25) {
                me.hand[offered] -= 2;
                me.melds.push(proto::Meld {
                    kind: proto::MeldKind::Pon as i32,
                    tiles: {
                        let mut pon = [0u8; 34];
                        pon[offered] = 3;
                        mpsz(&pon)
                    },
                });
                let after = analyze(&api, &me, ruleset).await;
                let d = tile_index(&after.discards[0].tile);
                me.hand[d] -= 1;
                me.visible[d] += 1;
                break; // the turn passes to the player after us
            }
            me.visible[offered] += 1;
        }
        turn += 1;
    }
}

async fn mahjong_files(cli: &Cli, pool: &DescriptorPool) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(cli.seed ^ 0x6d6a);
    let mut states = MjStates {
        discard: Vec::new(),
        analyze: Vec::new(),
        call: Vec::new(),
    };
    for game in 0..cli.mahjong_games {
        play_mahjong(game, &mut rng, &mut states, pool).await;
    }
    // Discard requests above 4 shanten run to the budget: fewer of them.
    let discard = pick(states.discard, cli.per_tag / 4, &mut rng);
    write(&cli.out.join("mahjong_discard.jsonl"), &discard)?;
    let analyze = pick(states.analyze, cli.per_tag / 4, &mut rng);
    write(&cli.out.join("mahjong_analyze.jsonl"), &analyze)?;
    write(
        &cli.out.join("mahjong_call.jsonl"),
        &pick(states.call, cli.per_tag, &mut rng),
    )?;
    Ok(())
}

// ---------------------------------------------------------------------------------
// Gomoku

/// The centre plus 1-3 seeded stones within two points of it.
fn gomoku_opening(rng: &mut StdRng, size: usize) -> Vec<Point> {
    let m = (size / 2) as i32;
    let mut moves = vec![Point::new(m as u8, m as u8)];
    let extra = rng.random_range(1..=3);
    while moves.len() <= extra {
        let p = Point::new(
            (m + rng.random_range(-2..=2)) as u8,
            (m + rng.random_range(-2..=2)) as u8,
        );
        if !moves.contains(&p) {
            moves.push(p);
        }
    }
    moves
}

/// The request form of a position: a move sequence, or (`lists`) stone lists with the
/// side to move.
fn gomoku_position(board: &Board, lists: bool) -> proto::GomokuPosition {
    let history: Vec<Point> = board.history().collect();
    if !lists {
        return proto::GomokuPosition {
            size: board.size() as u32,
            moves: format_sequence(&history),
            ..Default::default()
        };
    }
    let names = |parity: usize| -> Vec<String> {
        history
            .iter()
            .skip(parity)
            .step_by(2)
            .map(ToString::to_string)
            .collect()
    };
    proto::GomokuPosition {
        size: board.size() as u32,
        moves: String::new(),
        black: names(0),
        white: names(1),
        to_move: match board.to_move() {
            Color::Black => proto::Stone::Black as i32,
            Color::White => proto::Stone::White as i32,
        },
    }
}

fn gomoku_files(cli: &Cli, pool: &DescriptorPool) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(cli.seed ^ 0x676f);
    let configs = [
        (Rule::Freestyle, proto::GomokuRule::Freestyle, 15),
        (Rule::Freestyle, proto::GomokuRule::Freestyle, 20),
        (Rule::Standard, proto::GomokuRule::Standard, 15),
        (Rule::Renju, proto::GomokuRule::Renju, 15),
    ];
    let (mut moves, mut positions) = (Vec::new(), Vec::new());
    let mut searcher = Searcher::new(8 << 20);
    for (rule, proto_rule, size) in configs {
        for game in 0..cli.gomoku_games {
            let open = gomoku_opening(&mut rng, size);
            let mut board = Board::from_moves(size, rule, &open).expect("a legal opening");
            searcher.clear();
            loop {
                let stones = board.stone_count();
                let phase = match stones {
                    0..8 => "opening",
                    8..=40 => "middle",
                    _ => "late",
                };
                let tag = format!("{}{size}/{phase}", rule.name().to_lowercase());
                let source = format!("game {game} move {}", stones + 1);
                let position = gomoku_position(&board, stones % 2 == 1);
                let suggest = proto::SuggestGomokuMoveRequest {
                    position: Some(position.clone()),
                    rule: proto_rule as i32,
                    ..Default::default()
                };
                moves.push(Line {
                    method: "gameai.v1.GomokuService/SuggestGomokuMove",
                    tag: tag.clone(),
                    source: source.clone(),
                    json: to_json(pool, "gameai.v1.SuggestGomokuMoveRequest", &suggest),
                });
                let analyze = proto::AnalyzeGomokuPositionRequest {
                    position: Some(position),
                    rule: proto_rule as i32,
                };
                positions.push(Line {
                    method: "gameai.v1.GomokuService/AnalyzeGomokuPosition",
                    tag,
                    source,
                    json: to_json(pool, "gameai.v1.AnalyzeGomokuPositionRequest", &analyze),
                });
                let Ok(answer) = searcher.search(&mut board, &Limits::nodes(cli.gomoku_nodes))
                else {
                    break; // a full board
                };
                board
                    .play(answer.best)
                    .expect("the engine answers a legal point");
                if board.winner().is_some() {
                    break;
                }
            }
        }
    }
    write(
        &cli.out.join("gomoku_move.jsonl"),
        &pick(moves, cli.per_tag / 4, &mut rng),
    )?;
    write(
        &cli.out.join("gomoku_position.jsonl"),
        &pick(positions, cli.per_tag / 4, &mut rng),
    )?;
    Ok(())
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    let mut pool = DescriptorPool::new();
    pool.decode_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
        .expect("the contract's descriptors");
    std::fs::create_dir_all(&cli.out)?;
    let wanted = |game: &str| cli.only.iter().any(|g| g == game);
    if wanted("doudizhu") {
        ddz_files(&cli, &pool).await?;
    }
    if wanted("mahjong") {
        mahjong_files(&cli, &pool).await?;
    }
    if wanted("gomoku") {
        gomoku_files(&cli, &pool)?;
    }
    Ok(())
}
