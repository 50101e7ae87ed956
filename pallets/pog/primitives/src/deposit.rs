//! The deposit a miner holds while registered: a base plus a share per claimed GPU. The pallet
//! holds it; the agent tells a miner how much it needs before registering.

/// The deposit of a miner claiming `gpus` GPUs: `base + per_gpu · gpus`, saturating.
pub const fn miner_deposit(base: u128, per_gpu: u128, gpus: u32) -> u128 {
	base.saturating_add(per_gpu.saturating_mul(gpus as u128))
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn a_base_plus_a_share_per_gpu_never_overflowing() {
		assert_eq!(miner_deposit(100, 10, 0), 100);
		assert_eq!(miner_deposit(100, 10, 8), 180);
		assert_eq!(miner_deposit(u128::MAX - 1, 10, 8), u128::MAX);
	}
}
