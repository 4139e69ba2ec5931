//! Tetris Bot Protocol lines of any kind fed to the bot (heuristic only, no graph, so that
//! each `suggest` answers at once): it answers or notes what it ignored, and never
//! panics. With the first byte odd, a `rules` and a `start` of a valid game come first,
//! so that the lines reach a bot with a position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pc_bot::tbp::{GraphSource, TbpBot, TbpConfig};

fn start() -> String {
    let empty_row = format!("[{}]", ["null"; 10].join(","));
    let board = format!("[{}]", vec![empty_row; 40].join(","));
    format!(
        r#"{{"type":"start","hold":null,"queue":["T","I","O","L","J","S"],"combo":0,"back_to_back":false,"board":{board},"randomizer":{{"type":"seven_bag","bag_state":["Z"]}}}}"#
    )
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut bot = TbpBot::new(TbpConfig {
        graph: GraphSource::None,
        perfect_clears: false,
        think_time: None,
        ..TbpConfig::default()
    });
    if mode & 1 == 1 {
        bot.handle_line(r#"{"type":"rules","randomizer":"seven_bag"}"#);
        bot.handle_line(&start());
    }
    for line in text.lines().take(64) {
        if bot.handle_line(line).quit {
            break;
        }
    }
});
