//! mpsz parsing: a hand (`TileCounts`), one tile (`Tile`) and every meld kind. What
//! parses prints canonically and parses back to the same value.
#![no_main]
use gameai::mahjong::{Meld, MeldKind, Tile, TileCounts};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(counts) = text.parse::<TileCounts>() {
        let again: TileCounts = counts.to_string().parse().expect("canonical output parses");
        assert_eq!(again, counts);
    }
    if let Ok(tile) = text.parse::<Tile>() {
        assert_eq!(tile.to_string().parse::<Tile>().expect("round trip"), tile);
    }
    for kind in [
        MeldKind::Chi,
        MeldKind::Pon,
        MeldKind::OpenKan,
        MeldKind::ClosedKan,
        MeldKind::AddedKan,
    ] {
        if let Ok(meld) = Meld::parse(kind, text) {
            assert_eq!(meld.kind(), kind);
        }
    }
});
