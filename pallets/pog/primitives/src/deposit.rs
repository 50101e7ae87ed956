//! The deposit a miner holds while registered: a base, plus for each claimed GPU a floor and a
//! part that grows with the points the GPU scores once proven, so that what a GPU bonds (and a
//! failure slashes) follows what it earns. The pallet holds it; the agent asks the chain for it
//! before registering (`PogApi::deposit_for`).

/// Points per "megapoint", the unit the per-point deposit is priced in.
pub const MEGAPOINT: u128 = 1_000_000;

/// The deposit one claimed GPU scoring `points` points holds:
/// `per_gpu + per_megapoint · points / 10⁶` (rounded down), saturating.
pub const fn gpu_deposit(per_gpu: u128, per_megapoint: u128, points: u32) -> u128 {
	per_gpu.saturating_add(per_megapoint.saturating_mul(points as u128) / MEGAPOINT)
}

/// The deposit of a miner whose claimed GPUs hold `gpu_deposits` ([`gpu_deposit`] each):
/// `base` plus their sum, saturating.
pub fn miner_deposit(base: u128, gpu_deposits: impl IntoIterator<Item = u128>) -> u128 {
	gpu_deposits.into_iter().fold(base, u128::saturating_add)
}

#[cfg(test)]
mod tests {
	use super::*;
	use crate::profiles::H100;

	const POG: u128 = 1_000_000_000_000;

	#[test]
	fn a_gpu_bonds_a_floor_plus_its_points_and_never_overflows() {
		assert_eq!(gpu_deposit(10, 100, 0), 10);
		assert_eq!(gpu_deposit(10, 100, 2), 10, "a fraction of a unit is rounded down");
		assert_eq!(gpu_deposit(10, 1_000_000, 3), 13);
		assert_eq!(gpu_deposit(u128::MAX - 1, u128::MAX, u32::MAX), u128::MAX);
		assert_eq!(miner_deposit(100, [10, 20]), 130);
		assert_eq!(miner_deposit(u128::MAX - 1, [10]), u128::MAX);
	}

	#[test]
	fn at_the_runtime_rates_an_h100_bonds_about_four_and_a_half_pog_and_a_cpu_core_unit_one() {
		// PoG chain's runtime: 1 POG a GPU and 4 POG a megapoint.
		assert_eq!(H100.points(), 884_677);
		assert_eq!(gpu_deposit(POG, 4 * POG, H100.points()) / (POG / 100), 453, "4.53 POG");
		// A 16-core `cpu-core` unit scores 16 points.
		assert_eq!(gpu_deposit(POG, 4 * POG, 16), POG + 64 * POG / 1_000_000);
	}
}
