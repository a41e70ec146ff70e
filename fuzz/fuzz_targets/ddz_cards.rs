#![no_main]
use gameai::doudizhu::{Cards, Play, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(cards) = text.parse::<Cards>() {
        let again: Cards = cards.to_string().parse().expect("canonical output parses");
        assert_eq!(again, cards);
        let _ = Play::read(&cards, None, &Rules::default());
    }
});
