//! `docs/protocol.md`'s table of the two presets says what `ProtocolConfig::{dev, mainnet}` hold:
//! a preset changed without its table fails here (the review's F17: the table once said 8 where
//! the code said 1).

use crate::config::ProtocolConfig;
use pog_primitives::memory::ITEM_BYTES;
use sp_runtime::Perbill;

/// The presets' table (the first of docs/protocol.md): each row's label, dev cell, mainnet cell.
fn preset_table() -> Vec<[String; 3]> {
	let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol.md");
	let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
	text.lines()
		.skip_while(|l| !l.starts_with("| | dev preset"))
		.skip(2)
		.take_while(|l| l.starts_with('|'))
		.map(|l| {
			let cells: Vec<String> = l.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect();
			assert_eq!(cells.len(), 3, "a row of three cells: {l}");
			[cells[0].clone(), cells[1].clone(), cells[2].clone()]
		})
		.collect()
}

/// `cell` without the commas that group a figure's thousands ("1,024" reads "1024"; the comma
/// of "64, 2 s" stays).
fn ungrouped(cell: &str) -> String {
	let chars: Vec<char> = cell.chars().collect();
	let grouping = |i: usize| {
		chars[i] == ',' && i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(char::is_ascii_digit)
	};
	(0..chars.len()).filter(|i| !grouping(*i)).map(|i| chars[i]).collect()
}

fn percent(p: Perbill) -> String {
	format!("{}%", p.deconstruct() / 10_000_000)
}

/// What the cell of `label` begins with for preset `c`.
fn expected(label: &str, c: &ProtocolConfig) -> Option<String> {
	let m = &c.memory;
	let cache = u64::from(m.cache_items) * ITEM_BYTES as u64;
	let cache = if cache >= 1 << 20 { format!("{} MiB", cache >> 20) } else { format!("{} KiB", cache >> 10) };
	let rows: [(&str, String); 14] = [
		("round period", format!("{} blocks", c.period)),
		("round start drawn", format!("{} blocks", c.start_jitter)),
		("target GEMM time", format!("{} s", c.target_ms / 1000)),
		("slack added", format!("{} s", c.slack_ms / 1000)),
		("committee per verified challenge", format!("{} / {}", c.committee, c.committee * 2 / 3 + 1)),
		("verifications per validator", c.verifications_per_validator.to_string()),
		("reveal window / verdict window", format!("{} / {} blocks", c.reveal_window, c.verdict_window)),
		("miners settled per block", c.settle_per_block.to_string()),
		("slash per failed GPU", format!("{} of", percent(c.slash))),
		("inconclusive verifications", c.max_unverified_rounds.to_string()),
		("opened leaves per challenge", format!("{} / {}", c.openings, c.entries_per_opening)),
		(
			"memory phase",
			format!(
				"{cache}, {}, {} s, {} s, {}, {}%",
				m.parents,
				m.walk_ms / 1000,
				m.lane_ms / 1000,
				m.openings,
				m.tolerance_percent
			),
		),
		("chunk along k", c.chunk_k.to_string()),
		("declared memory and disk", percent(c.hardware_bound)),
	];
	rows.into_iter().find(|(l, _)| label.starts_with(l)).map(|(_, cell)| cell)
}

/// Whether `cell` begins with the figure or words `want`, not with a longer number.
fn says(cell: &str, want: &str) -> bool {
	cell.strip_prefix(want).is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
}

#[test]
fn the_protocol_table_says_what_the_presets_hold() {
	let (dev, mainnet) = (ProtocolConfig::dev(), ProtocolConfig::mainnet());
	let table = preset_table();
	let mut checked = 0;
	for [label, dev_cell, mainnet_cell] in &table {
		let (dev_cell, mainnet_cell) = (ungrouped(dev_cell), ungrouped(mainnet_cell));
		let (Some(want_dev), Some(want_mainnet)) = (expected(label, &dev), expected(label, &mainnet)) else {
			continue;
		};
		checked += 1;
		assert!(says(&dev_cell, &want_dev), "{label}: the dev cell says '{dev_cell}', the preset '{want_dev}'");
		// "same" stands for the dev cell when the presets agree
		let same = mainnet_cell == "same" && want_dev == want_mainnet;
		assert!(
			same || says(&mainnet_cell, &want_mainnet),
			"{label}: the mainnet cell says '{mainnet_cell}', the preset '{want_mainnet}'"
		);
	}
	assert_eq!(checked, 14, "every row the test knows is in the table: {table:?}");
}
