//! The machine's CUDA GPUs and their NVML facts ([`detect`], [`GpuInfo`]), and the checks that
//! the CUDA libraries cudarc loads at run time are present.

use crate::error::{GpuError, LIBRARY_HINT};

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
}
