//! The storage move of a pallet that left `pallet-pog`: its items from one pallet's prefix to
//! another's, unchanged in encoding, and what each account held under `pallet-pog`'s hold reason
//! held again under the new pallet's. The reward ledger's move (`pallet-pog-rewards`' v1) and the
//! validator set's (`pallet-pog-validators`' v1) both run it.

use frame_support::{
	storage::storage_prefix,
	traits::{fungible::MutateHold, tokens::Precision},
};
use sp_arithmetic::traits::Zero;

/// Moves every key of `items` from pallet `from`'s prefix to pallet `to`'s: a value at the item's
/// prefix itself (a plain value) and every map entry after it. Returns the number of keys moved:
/// each was read once, written once under `to` and killed under `from`.
pub fn move_items(items: &[&str], from: &str, to: &str) -> u64 {
	let mut moved = 0u64;
	for item in items {
		let old = storage_prefix(from.as_bytes(), item.as_bytes());
		let new = storage_prefix(to.as_bytes(), item.as_bytes());
		let mut key = old.to_vec();
		loop {
			if let Some(value) = sp_io::storage::get(&key) {
				let mut to_key = new.to_vec();
				to_key.extend_from_slice(&key[old.len()..]);
				sp_io::storage::set(&to_key, &value);
				sp_io::storage::clear(&key);
				moved = moved.saturating_add(1);
			}
			match sp_io::storage::next_key(&key) {
				Some(next) if next.starts_with(&old) => key = next,
				_ => break,
			}
		}
	}
	moved
}

/// Whether any of `items` has a key under pallet `pallet`'s prefix.
pub fn left_behind(items: &[&str], pallet: &str) -> bool {
	items.iter().any(|item| {
		let prefix = storage_prefix(pallet.as_bytes(), item.as_bytes());
		sp_io::storage::exists(&prefix)
			|| sp_io::storage::next_key(&prefix).is_some_and(|next| next.starts_with(&prefix))
	})
}

/// What [`rehold`] did with one account's hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rehold<Balance> {
	/// Nothing was held under the old reason.
	Nothing,
	/// This much is now held under the new reason, and nothing under the old.
	Moved(Balance),
	/// This much was released from the old reason and could not be held under the new one: it is
	/// free in the account (the caller writes its record down and says so).
	Released(Balance),
}

/// Moves what `who` holds under reason `old` to reason `new`.
pub fn rehold<AccountId, C: MutateHold<AccountId>>(
	who: &AccountId,
	old: &C::Reason,
	new: &C::Reason,
) -> Rehold<C::Balance> {
	let held = C::balance_on_hold(old, who);
	if held.is_zero() {
		return Rehold::Nothing;
	}
	let released = C::release(old, who, held, Precision::BestEffort).unwrap_or_default();
	match C::hold(new, who, released) {
		Ok(()) => Rehold::Moved(released),
		Err(_) => Rehold::Released(released),
	}
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn move_items_moves_values_and_map_entries_and_nothing_else() {
		sp_io::TestExternalities::default().execute_with(|| {
			let value = storage_prefix(b"Pog", b"Value");
			let map = storage_prefix(b"Pog", b"Map");
			let other = storage_prefix(b"Pog", b"Other");
			sp_io::storage::set(&value, b"v");
			for k in [b"a", b"b", b"c"] {
				sp_io::storage::set(&[&map[..], k].concat(), k);
			}
			sp_io::storage::set(&other, b"stays");
			assert_eq!(move_items(&["Value", "Map", "Absent"], "Pog", "New"), 4);
			assert!(!left_behind(&["Value", "Map"], "Pog"));
			assert!(left_behind(&["Other"], "Pog"));
			assert_eq!(sp_io::storage::get(&storage_prefix(b"New", b"Value")).as_deref(), Some(&b"v"[..]));
			let new_map = storage_prefix(b"New", b"Map");
			for k in [b"a", b"b", b"c"] {
				assert_eq!(sp_io::storage::get(&[&new_map[..], k].concat()).as_deref(), Some(&k[..]));
			}
			assert_eq!(sp_io::storage::get(&other).as_deref(), Some(&b"stays"[..]));
			// a second run finds nothing to move
			assert_eq!(move_items(&["Value", "Map"], "Pog", "New"), 0);
		});
	}
}
