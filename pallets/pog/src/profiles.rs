//! GPU profiles as a genesis config writes them. The default table itself is
//! `pog_primitives::profiles` (figures and sources in `docs/profiles.md`).

use alloc::{string::String, vec::Vec};

use crate::types::{Hash32, MaxNameLen, MemoryRules, Precision};
use codec::{Decode, DecodeWithMemTracking, Encode, MaxEncodedLen};
use frame_support::BoundedVec;
use scale_info::TypeInfo;

/// A GPU model the chain knows: what it must be able to do.
#[derive(Clone, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, MaxEncodedLen)]
pub struct GpuProfile {
	/// Model name, e.g. `NVIDIA H100 80GB HBM3`.
	pub name: BoundedVec<u8, MaxNameLen>,
	/// Memory in MiB, as NVML reports the total; sets the challenge's m and n.
	pub vram_mib: u32,
	/// Expected sustained dense GEMM throughput in GFLOPS per precision, in the order
	/// fp32, tf32, fp16, bf16, fp8-e4m3, on the precision's native path; 0 where the GPU is not
	/// challenged in it. With `int8_gops` it sets k and the deadline ([`Self::priced_gflops`]).
	pub gflops: [u32; 5],
	/// Expected sustained int8 GOPS (tensor cores, or DP4A on CUDA cores): the rate of the exact
	/// int8 aliases of each precision (`pog_primitives::pricing`), which price its challenges.
	pub int8_gops: u32,
	/// How much slower than `gflops` (in percent) a GPU may run and still meet the deadline.
	pub tolerance_percent: u8,
	/// Whether the figures are per CPU core: a miner claims its CPU as one unit of this profile,
	/// challenged at the figures times its declared cores ([`Self::for_cores`]).
	pub per_core: bool,
	/// Measured rate of the memory phase's walks with their commitment, in million dataset
	/// reads a second over a dataset of 0.9 × `vram_mib` (`offchain-gpu bench --memory`). With
	/// `mem_parent_mps` it sizes and times the memory phase; both 0: not measured, so the
	/// profile's rounds have no memory phase and it earns no memory points.
	pub mem_read_mps: u32,
	/// Measured rate of the memory phase's fill, in million cache-parent reads a second.
	pub mem_parent_mps: u32,
}

/// The rule a profile breaks ([`GpuProfile::validate`]); carried by `Error::InvalidProfile`.
#[derive(
	Clone, Copy, Encode, Decode, DecodeWithMemTracking, PartialEq, Eq, Debug, TypeInfo, frame_support::PalletError,
)]
pub enum ProfileRule {
	/// `name` is empty.
	EmptyName,
	/// `vram_mib` is zero.
	ZeroMemory,
	/// No challenged precision has a rate (tf32 alone is never challenged).
	NoChallengedPrecision,
	/// `tolerance_percent` is 100 or more.
	Tolerance,
	/// One memory rate without the other (`mem_read_mps`, `mem_parent_mps`: both or neither).
	OneMemoryRate,
}

impl GpuProfile {
	/// The first rule this profile breaks.
	pub fn validate(&self) -> Result<(), ProfileRule> {
		use ProfileRule::*;
		let rules = [
			(!self.name.is_empty(), EmptyName),
			(self.vram_mib > 0, ZeroMemory),
			(Precision::CHALLENGED.iter().any(|q| self.challenged_in(*q)), NoChallengedPrecision),
			(self.tolerance_percent < 100, Tolerance),
			((self.mem_read_mps == 0) == (self.mem_parent_mps == 0), OneMemoryRate),
		];
		match rules.into_iter().find(|(ok, _)| !ok) {
			Some((_, broken)) => Err(broken),
			None => Ok(()),
		}
	}

	/// The on-chain form of a default table row (a name longer than [`MaxNameLen`] would be cut;
	/// no default's is).
	pub fn from_figures(f: &pog_primitives::profiles::ProfileFigures) -> Self {
		GpuProfile {
			name: BoundedVec::truncate_from(f.name.as_bytes().to_vec()),
			vram_mib: f.vram_mib,
			gflops: f.gflops,
			int8_gops: f.int8_gops,
			tolerance_percent: f.tolerance_percent,
			per_core: f.per_core,
			mem_read_mps: f.mem_read_mps,
			mem_parent_mps: f.mem_parent_mps,
		}
	}

	/// The profile a unit of it is challenged and scored at, for a miner declaring `cores` CPU
	/// cores: itself, or for a per-core profile its memory and rates times `cores`.
	pub fn for_cores(&self, cores: u32) -> GpuProfile {
		use pog_primitives::profiles::{unit_figures, unit_memory_rates};
		let (vram_mib, gflops, int8_gops) =
			unit_figures(self.vram_mib, &self.gflops, self.int8_gops, self.per_core, cores);
		let (mem_read_mps, mem_parent_mps) =
			unit_memory_rates(self.mem_read_mps, self.mem_parent_mps, self.per_core, cores);
		GpuProfile { vram_mib, gflops, int8_gops, mem_read_mps, mem_parent_mps, ..self.clone() }
	}

	/// Whether the profile's memory rates were measured: its rounds run the memory phase.
	pub fn memory_measured(&self) -> bool {
		pog_primitives::memory::measured(self.mem_read_mps, self.mem_parent_mps)
	}

	/// The memory phase of a GPU of this profile whose challenge seed is `seed`, under `rules`
	/// (`None`: the profile has no measured memory rates, so no memory phase).
	pub fn memory_challenge(
		&self,
		seed: &Hash32,
		rules: &MemoryRules,
	) -> Option<pog_primitives::memory::MemoryChallenge> {
		pog_primitives::memory::challenge(seed, self.vram_mib, self.mem_read_mps, self.mem_parent_mps, rules)
	}

	/// Whether a challenge may be drawn in `precision`: the profile lists a native rate for it
	/// and it is a challenged precision (never tf32).
	pub fn challenged_in(&self, precision: Precision) -> bool {
		self.priced_gflops(precision) > 0
	}

	/// The rate a challenge in `precision` is sized and timed at: the faster of the native rate
	/// and the int8 alias (`pog_primitives::pricing::priced_gflops`); 0 if not challenged in it.
	pub fn priced_gflops(&self, precision: Precision) -> u32 {
		pog_primitives::pricing::priced_gflops(&self.gflops, self.int8_gops, precision)
	}

	/// Score points of a GPU of this model whose round passed: its compute points (the mean
	/// priced rate over the challenged precisions, `pog_primitives::pricing::compute_points`),
	/// plus its memory's points where it has a memory phase and is not a per-core unit
	/// ([`pog_primitives::pricing::proven_points`]).
	pub fn proven_points(&self) -> u32 {
		pog_primitives::pricing::proven_points(
			&self.gflops,
			self.int8_gops,
			self.vram_mib,
			self.memory_measured(),
			self.per_core,
		)
	}
}

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
			p.validate().map_err(Error::<T>::InvalidProfile)?;
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

		/// Replaces profile `id` and rebonds its claimants; returns the miners read.
		pub(crate) fn do_update_profile(id: ProfileId, profile: GpuProfile) -> Result<u32, DispatchError> {
			Self::validate_profile(&profile)?;
			ensure!(Profiles::<T>::contains_key(id), Error::<T>::UnknownProfile);
			Self::ensure_no_open_round()?;
			Profiles::<T>::insert(id, profile);
			let read = Self::rebond_claimants(id);
			Self::deposit_event(Event::ProfileUpdated { id });
			Ok(read)
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
