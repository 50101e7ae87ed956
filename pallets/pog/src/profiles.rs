//! GPU profiles as a genesis config writes them. The default table itself is
//! `pog_primitives::profiles` (figures and sources in `docs/profiles.md`).

use alloc::{string::String, vec::Vec};

use crate::types::GpuProfile;

/// A profile as written in a genesis config (name as text).
#[derive(Clone, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenesisProfile {
	/// Model name.
	pub name: String,
	/// Memory in MiB.
	pub vram_mib: u32,
	/// Expected GFLOPS: fp32, tf32, fp16, bf16, fp8-e4m3 (0 = not challenged).
	pub gflops: [u32; 5],
	/// Expected int8 GOPS (prices the int8 aliases; 0 for a device without int8 math).
	#[serde(default)]
	pub int8_gops: u32,
	/// Throughput tolerance in percent.
	pub tolerance_percent: u8,
	/// Whether the figures are per CPU core (a miner's CPU, claimed as one unit).
	#[serde(default)]
	pub per_core: bool,
	/// Measured memory-phase read rate, million reads a second (0: no memory phase).
	#[serde(default)]
	pub mem_read_mps: u32,
	/// Measured memory-phase fill rate, million parent reads a second (0: no memory phase).
	#[serde(default)]
	pub mem_parent_mps: u32,
}

impl GenesisProfile {
	/// The on-chain form; `None` if the name is too long.
	pub fn to_profile(&self) -> Option<GpuProfile> {
		Some(GpuProfile {
			name: self.name.as_bytes().to_vec().try_into().ok()?,
			vram_mib: self.vram_mib,
			gflops: self.gflops,
			int8_gops: self.int8_gops,
			tolerance_percent: self.tolerance_percent,
			per_core: self.per_core,
			mem_read_mps: self.mem_read_mps,
			mem_parent_mps: self.mem_parent_mps,
		})
	}
}

/// Name of the profile a dev chain uses for miners without a GPU.
pub const CPU_REFERENCE: &str = pog_primitives::profiles::CPU_REFERENCE;
/// Name of the per-core CPU profile (a miner's declared cores, challenged as one unit).
pub const CPU_CORE: &str = pog_primitives::profiles::CPU_CORE;

impl From<&pog_primitives::profiles::ProfileFigures> for GenesisProfile {
	fn from(f: &pog_primitives::profiles::ProfileFigures) -> Self {
		GenesisProfile {
			name: f.name.into(),
			vram_mib: f.vram_mib,
			gflops: f.gflops,
			int8_gops: f.int8_gops,
			tolerance_percent: f.tolerance_percent,
			per_core: f.per_core,
			mem_read_mps: f.mem_read_mps,
			mem_parent_mps: f.mem_parent_mps,
		}
	}
}

/// The default table (`pog_primitives::profiles::DEFAULT_PROFILES`) as genesis writes it.
pub fn default_profiles() -> Vec<GenesisProfile> {
	pog_primitives::profiles::DEFAULT_PROFILES.iter().map(GenesisProfile::from).collect()
}

/// The default table without [`CPU_REFERENCE`], the dev chains' CPU profile: what a production
/// chain starts with. Its GPUs keep the ids 0, 1, … of the default table.
pub fn production_profiles() -> Vec<GenesisProfile> {
	default_profiles().into_iter().filter(|p| p.name != CPU_REFERENCE).collect()
}

mod calls {
	use frame_support::{ensure, pallet_prelude::*};

	use crate::{pallet::*, types::*};

	impl<T: Config> Pallet<T> {
		pub(crate) fn validate_profile(p: &GpuProfile) -> DispatchResult {
			ensure!(
				p.vram_mib > 0
					&& Precision::CHALLENGED.iter().any(|q| p.challenged_in(*q))
					&& p.tolerance_percent < 100
					&& !p.name.is_empty()
					&& (p.mem_read_mps == 0) == (p.mem_parent_mps == 0),
				Error::<T>::InvalidProfile
			);
			ensure!(
				pog_primitives::pricing::alias_outruns_native(&p.gflops, p.int8_gops, p.tolerance_percent).is_none(),
				Error::<T>::AliasOutrunsNative
			);
			Ok(())
		}

		/// Adds `profile` under the next id (validated, within `MaxProfiles`); returns the id. The
		/// one place profiles are created: genesis, `add_profile` and the benchmarks.
		pub(crate) fn insert_profile(profile: GpuProfile) -> Result<ProfileId, DispatchError> {
			Self::validate_profile(&profile)?;
			ensure!(ProfileCount::<T>::get() < T::MaxProfiles::get(), Error::<T>::TooManyProfiles);
			let id = NextProfileId::<T>::get();
			Profiles::<T>::insert(id, profile);
			NextProfileId::<T>::put(id.saturating_add(1));
			ProfileCount::<T>::mutate(|c| *c = c.saturating_add(1));
			Ok(id)
		}

		pub(crate) fn do_update_profile(id: ProfileId, profile: GpuProfile) -> DispatchResult {
			Self::validate_profile(&profile)?;
			ensure!(Profiles::<T>::contains_key(id), Error::<T>::UnknownProfile);
			Self::ensure_no_open_round()?;
			Profiles::<T>::insert(id, profile);
			Self::deposit_event(Event::ProfileUpdated { id });
			Ok(())
		}

		pub(crate) fn do_remove_profile(id: ProfileId) -> DispatchResult {
			ensure!(Profiles::<T>::contains_key(id), Error::<T>::UnknownProfile);
			ensure!(ProfileClaims::<T>::get(id) == 0, Error::<T>::ProfileInUse);
			Profiles::<T>::remove(id);
			ProfileCount::<T>::mutate(|c| *c = c.saturating_sub(1));
			Self::deposit_event(Event::ProfileRemoved { id });
			Ok(())
		}
	}
}
