//! What the miner's machine has: GPUs (NVML, through `pog-cuda`), CPU model and cores,
//! memory and disk. Registration claims come from here.

use serde::Serialize;
use sysinfo::{Disks, System};

use pog_cuda::{self as gpu, GpuInfo};

/// The machine's hardware as the agent reports it.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
	/// GPUs found through NVML (empty when there is no NVIDIA driver).
	pub gpus: Vec<GpuInfo>,
	/// Why no GPU was found, if none was.
	pub gpu_error: Option<String>,
	/// CPU model string.
	pub cpu_model: String,
	/// Logical cores.
	pub cpu_cores: u32,
	/// Memory in MiB.
	pub ram_mib: u64,
	/// Disk space of all mounted disks in GiB.
	pub disk_gib: u64,
}

/// Detects the machine's hardware.
pub fn detect() -> Machine {
	let (gpus, gpu_error) = match gpu::detect() {
		Ok(gpus) if gpus.is_empty() => (gpus, Some("the NVIDIA driver reports no GPU".to_string())),
		Ok(gpus) => (gpus, None),
		Err(e) => (Vec::new(), Some(e.to_string())),
	};
	let mut sys = System::new();
	sys.refresh_cpu_all();
	sys.refresh_memory();
	let cpu_model = sys.cpus().first().map(|c| c.brand().trim().to_string()).unwrap_or_default();
	let cpu_cores = sys.cpus().len() as u32;
	let disks = Disks::new_with_refreshed_list();
	let disk_bytes: u64 = disks.iter().map(|d| d.total_space()).sum();
	Machine {
		gpus,
		gpu_error,
		cpu_model,
		cpu_cores,
		ram_mib: sys.total_memory() / (1 << 20),
		disk_gib: disk_bytes / (1 << 30),
	}
}

/// The 16 bytes of an NVML UUID (`GPU-8c1e4f0a-...`), as the chain stores GPU identities.
pub fn uuid_bytes(nvml_uuid: &str) -> Option<[u8; 16]> {
	let hex: String = nvml_uuid.trim_start_matches("GPU-").chars().filter(|c| *c != '-').collect();
	let bytes = hex::decode(hex).ok()?;
	bytes.try_into().ok()
}

/// Index of the per-core CPU claim among an account's CPU identities ([`cpu_uuid`]).
pub const CPU_CLAIM_INDEX: u32 = u32::MAX;

/// The identity of CPU unit `index` of `account` (the CPU backend has no hardware UUID).
pub fn cpu_uuid(account: &[u8], index: u32) -> [u8; 16] {
	let h = pog_primitives::commitment::keccak256_concat(&[b"pog/cpu", account, &index.to_le_bytes()]);
	let mut out = [0u8; 16];
	out.copy_from_slice(&h[..16]);
	out
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn nvml_uuids_become_16_bytes() {
		let b = uuid_bytes("GPU-8c1e4f0a-1b2c-3d4e-5f60-718293a4b5c6").unwrap();
		assert_eq!(b[0], 0x8c);
		assert_eq!(b[15], 0xc6);
		assert!(uuid_bytes("GPU-xyz").is_none());
		assert_ne!(cpu_uuid(&[1; 32], 0), cpu_uuid(&[1; 32], 1));
		assert_ne!(cpu_uuid(&[1; 32], 0), cpu_uuid(&[2; 32], 0));
	}
}
