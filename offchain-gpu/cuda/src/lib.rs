//! CUDA backend of the `offchain-gpu` miner agent.
//!
//! - [`detect`] lists the CUDA GPUs with their NVML facts ([`GpuInfo`]).
//! - [`GpuProver`] answers a challenge on one GPU: NVRTC kernels generate the Philox matrices
//!   chunk by chunk along k (overlapped with the GEMM of the previous chunk), cuBLASLt
//!   accumulates `C += A_chunk · B_chunk` in fp32, and Keccak kernels hash the leaves of C and
//!   build the Merkle tree on the device. The result, a [`GpuCommitment`], keeps C and the tree
//!   on the device and copies back only the root and, when asked, opened leaves with their paths.
//! - [`GpuProver`] implements `pog_prover::Prover`, the device-neutral interface the agent
//!   drives; this crate depends on `pog-prover`, never the reverse.
//! - [`bench`] and [`selftest`] measure and check a GPU (the agent's `bench` and `selftest`
//!   subcommands); they take plain configuration structs and return reports, and never see a
//!   command-line flag.
//!
//! Everything must equal `pog_primitives` bit for bit; CUDA libraries are loaded at run time, so
//! the crate builds and its unit tests run without CUDA.

#![warn(missing_docs)]

pub mod bench;
mod device;
mod gemm;
mod instruments;
pub mod kernels;
mod memory;
mod prover;
pub mod selftest;

pub use gemm::Fp8Path;
pub use memory::{MemoryRun, Residency};
pub use prover::{GpuCommitment, GpuProver};

/// How to point the loader at the CUDA 13 libraries where the toolkit installs them by default
/// (`/usr/local/cuda-13`; the driver's `libcuda.so.1` and `libnvidia-ml.so.1` in `/usr/lib`).
pub const LIBRARY_HINT: &str =
	"set LD_LIBRARY_PATH=/usr/local/cuda-13/targets/x86_64-linux/lib:/usr/lib (libcuda.so.1 is in /usr/lib)";

/// Errors of the CUDA backend.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
	/// A shared library could not be loaded.
	#[error("CUDA library {library} could not be loaded ({what}); {hint}", hint = LIBRARY_HINT)]
	LibraryMissing {
		/// The library's name.
		library: &'static str,
		/// What it is needed for.
		what: &'static str,
	},
	/// No CUDA device is present.
	#[error("no CUDA GPU found (the driver reports {0} devices)")]
	NoGpu(i32),
	/// No device with this ordinal.
	#[error("no CUDA GPU with ordinal {ordinal} ({count} present)")]
	NoSuchDevice {
		/// Ordinal asked for.
		ordinal: usize,
		/// Devices present.
		count: usize,
	},
	/// A CUDA driver call failed.
	#[error("CUDA driver: {0}")]
	Driver(String),
	/// An NVML call failed.
	#[error("NVML: {0}")]
	Nvml(String),
	/// NVRTC failed to compile the kernels.
	#[error("NVRTC: {0}")]
	Nvrtc(String),
	/// A cuBLASLt call failed.
	#[error("cuBLASLt: {0}")]
	Cublas(String),
	/// The challenge does not fit into the device's free memory.
	#[error("challenge needs {needed_mib} MiB of device memory, {free_mib} MiB are free")]
	OutOfMemory {
		/// MiB needed.
		needed_mib: u64,
		/// MiB free.
		free_mib: u64,
	},
	/// The challenge specification is not one this backend can run.
	#[error("invalid challenge: {0}")]
	InvalidSpec(String),
	/// An opened leaf index is out of range.
	#[error("leaf {leaf} out of range ({num_leaves} leaves)")]
	LeafOutOfRange {
		/// The leaf asked for.
		leaf: u32,
		/// Leaves in the tree.
		num_leaves: u32,
	},
}

impl From<cudarc::driver::DriverError> for GpuError {
	fn from(e: cudarc::driver::DriverError) -> Self {
		GpuError::Driver(format!("{e:?}"))
	}
}

impl From<cudarc::cublaslt::result::CublasError> for GpuError {
	fn from(e: cudarc::cublaslt::result::CublasError) -> Self {
		GpuError::Cublas(format!("{e:?}"))
	}
}

impl From<nvml_wrapper::error::NvmlError> for GpuError {
	fn from(e: nvml_wrapper::error::NvmlError) -> Self {
		GpuError::Nvml(e.to_string())
	}
}

/// Facts about one GPU.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GpuInfo {
	/// CUDA device ordinal.
	pub ordinal: u32,
	/// NVML UUID (`GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`).
	pub uuid: String,
	/// Marketing name (`NVIDIA H100 80GB HBM3`).
	pub name: String,
	/// Total device memory in MiB.
	pub vram_mib: u32,
	/// Current SM clock in MHz.
	pub sm_clock_mhz: u32,
	/// Current memory clock in MHz.
	pub mem_clock_mhz: u32,
	/// GPU temperature in °C.
	pub temperature_c: u32,
	/// Current board power in W.
	pub power_w: f64,
	/// Enforced power limit in W.
	pub power_limit_w: f64,
}

/// Checks that a shared library of cudarc's dynamic loading is present (cudarc panics on first
/// use otherwise).
pub(crate) fn require_libraries(with_compute: bool) -> Result<(), GpuError> {
	// SAFETY: only tries to open the libraries (dlopen) and closes them again.
	if !unsafe { cudarc::driver::sys::is_culib_present() } {
		return Err(GpuError::LibraryMissing { library: "libcuda.so.1", what: "CUDA driver" });
	}
	if with_compute {
		if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
			return Err(GpuError::LibraryMissing { library: "libnvrtc.so.13", what: "run-time kernel compiler" });
		}
		if !unsafe { cudarc::cublaslt::sys::is_culib_present() } {
			return Err(GpuError::LibraryMissing { library: "libcublasLt.so.13", what: "GEMM library" });
		}
	}
	Ok(())
}

/// The NVML handle (tries the plain and the versioned library name).
pub(crate) fn nvml() -> Result<nvml_wrapper::Nvml, GpuError> {
	match nvml_wrapper::Nvml::init() {
		Ok(n) => Ok(n),
		Err(_) => nvml_wrapper::Nvml::builder()
			.lib_path(std::ffi::OsStr::new("libnvidia-ml.so.1"))
			.init()
			.map_err(|e| GpuError::Nvml(format!("libnvidia-ml.so.1 could not be initialised: {e}; {LIBRARY_HINT}"))),
	}
}

/// NVML's UUID string of a CUDA device UUID.
pub(crate) fn uuid_string(bytes: &[u8; 16]) -> String {
	let h: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
	format!(
		"GPU-{}-{}-{}-{}-{}",
		h[0..4].concat(),
		h[4..6].concat(),
		h[6..8].concat(),
		h[8..10].concat(),
		h[10..16].concat()
	)
}

/// Facts of the CUDA device `ordinal`, from the driver and NVML (matched by UUID).
pub(crate) fn device_info(nvml: &nvml_wrapper::Nvml, ordinal: usize) -> Result<GpuInfo, GpuError> {
	use cudarc::driver::result::device;
	use nvml_wrapper::enum_wrappers::device::{Clock, TemperatureSensor};
	let dev = device::get(ordinal as i32)?;
	let raw = device::get_uuid(dev)?;
	let bytes: [u8; 16] = raw.bytes.map(|b| b as u8);
	let uuid = uuid_string(&bytes);
	let name = device::get_name(dev)?;
	// SAFETY: `dev` is a valid device handle from cuDeviceGet.
	let total = unsafe { device::total_mem(dev) }?;
	let mut info = GpuInfo {
		ordinal: ordinal as u32,
		uuid,
		name,
		vram_mib: (total >> 20) as u32,
		sm_clock_mhz: 0,
		mem_clock_mhz: 0,
		temperature_c: 0,
		power_w: 0.0,
		power_limit_w: 0.0,
	};
	let d = nvml.device_by_uuid(info.uuid.as_str())?;
	info.sm_clock_mhz = d.clock_info(Clock::SM).unwrap_or(0);
	info.mem_clock_mhz = d.clock_info(Clock::Memory).unwrap_or(0);
	info.temperature_c = d.temperature(TemperatureSensor::Gpu).unwrap_or(0);
	info.power_w = f64::from(d.power_usage().unwrap_or(0)) / 1000.0;
	info.power_limit_w = f64::from(d.enforced_power_limit().unwrap_or(0)) / 1000.0;
	if let Ok(mem) = d.memory_info() {
		info.vram_mib = (mem.total >> 20) as u32;
	}
	Ok(info)
}

/// Every CUDA GPU of this machine with its NVML facts, by CUDA ordinal.
///
/// Fails (never panics) when the driver or NVML cannot be loaded or no GPU is present; the
/// message names the library and where it is expected.
pub fn detect() -> Result<Vec<GpuInfo>, GpuError> {
	require_libraries(false)?;
	cudarc::driver::result::init()?;
	let count = cudarc::driver::result::device::get_count()?;
	if count <= 0 {
		return Err(GpuError::NoGpu(count));
	}
	let nvml = nvml()?;
	(0..count as usize).map(|i| device_info(&nvml, i)).collect()
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn uuid_is_formatted_like_nvml() {
		let b: [u8; 16] = core::array::from_fn(|i| (i as u8) * 17);
		assert_eq!(uuid_string(&b), "GPU-00112233-4455-6677-8899-aabbccddeeff");
	}

	/// Without a GPU (CI) detection reports an error instead of panicking; with one it lists it.
	#[test]
	fn detect_does_not_panic() {
		match detect() {
			Ok(gpus) => assert!(!gpus.is_empty()),
			Err(e) => assert!(!e.to_string().is_empty()),
		}
	}

	#[test]
	fn missing_library_message_names_the_path() {
		let e = GpuError::LibraryMissing { library: "libcuda.so.1", what: "CUDA driver" };
		assert!(e.to_string().contains("/usr/local/cuda-13/targets/x86_64-linux/lib"));
	}
}
