//! The chain's clock, on which every deadline is read, and the waits on it.

use std::time::Duration;

use super::Ctx;

/// The chain's time as it reads deadlines: the round's clock at the best block (ms).
pub(super) async fn chain_now_ms(ctx: &Ctx) -> anyhow::Result<u64> {
	ctx.chain.round_clock_ms().await
}

/// Waits until the chain's clock reads `ms` or later, a best block at a time.
pub(super) async fn wait_until_chain_ms(ctx: &Ctx, ms: u64) -> anyhow::Result<()> {
	while chain_now_ms(ctx).await? < ms {
		next_block(ctx).await?;
	}
	Ok(())
}

/// Waits for the next best block (or 12 s, whichever is first).
async fn next_block(ctx: &Ctx) -> anyhow::Result<()> {
	let mut head = ctx.head.clone();
	let _ = tokio::time::timeout(Duration::from_secs(12), head.changed()).await;
	Ok(())
}
