//! What can go wrong on the CUDA backend ([`GpuError`]), and where the loader finds the CUDA
//! libraries ([`LIBRARY_HINT`]).

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
	/// An access to a device buffer outside it: a bug in this crate, caught before the driver
	/// call (the buffers check every range they copy or hand out an address for).
	#[error("elements {first}..{first}+{count} outside a device buffer of {len} elements")]
	OutOfBounds {
		/// The first element asked for.
		first: usize,
		/// Elements asked for.
		count: usize,
		/// Elements in the buffer.
		len: usize,
	},
	/// A kernel launched on a buffer smaller than what it uses: a bug in this crate, caught
	/// before the kernel runs (every launch checks its buffers).
	#[error("kernel {kernel} would use {need} elements of `{buffer}`, which holds {have}")]
	LaunchOutOfBounds {
		/// The kernel.
		kernel: String,
		/// Its buffer argument.
		buffer: &'static str,
		/// Elements the kernel uses.
		need: u64,
		/// Elements the buffer holds.
		have: usize,
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

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn missing_library_message_names_the_path() {
		let e = GpuError::LibraryMissing { library: "libcuda.so.1", what: "CUDA driver" };
		assert!(e.to_string().contains("/usr/local/cuda-13/targets/x86_64-linux/lib"));
	}
}
