//! GPU profiles as a genesis config writes them. The default table itself is
//! `pog_primitives::profiles` (figures and sources in `docs/profiles.md`).

use alloc::{string::String, vec::Vec};

use crate::types::MaxNameLen;
use codec::{Decode, DecodeWithMemTracking, Encode};
use frame_support::BoundedVec;
pub use pog_primitives::profiles::{Profile, ProfileFigures};
use pog_primitives::Precision;
use scale_info::TypeInfo;

/// A GPU model the chain knows: its name (e.g. `NVIDIA H100 80GB HBM3`) and what it must be able
/// to do ([`ProfileFigures`]).
pub type GpuProfile = Profile<BoundedVec<u8, MaxNameLen>>;

/// A profile as a genesis config writes it: the name as text, the figures beside it.
pub type GenesisProfile = Profile<String>;

/// The rule a profile breaks ([`ValidateProfile::validate`]); carried by `Error::InvalidProfile`.
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
	/// A verified GPU of the profile would score no points: its priced rates average below one
	/// GFLOPS over the four challenged precisions (`pog_primitives::pricing::compute_points`), and
	/// it has no memory points. Its miners would prove it every round and never be paid.
	NoPoints,
	/// `tolerance_percent` is 100 or more.
	Tolerance,
	/// One memory rate without the other (`mem_read_mps`, `mem_parent_mps`: both or neither).
	OneMemoryRate,
	/// Its GEMM would exhaust a verifier under the configuration: the entries a member checks at
	/// its largest `k` (its rates over its memory) would take one core more than
	/// `pog_primitives::verify::MAX_VERIFY_NS` (`Pallet::verifier_ns`; a per-core profile at one
	/// core and at the most cores).
	VerifierTooCostly,
}

/// The pallet's rules for a profile it stores.
pub trait ValidateProfile {
	/// The first rule this profile breaks.
	fn validate(&self) -> Result<(), ProfileRule>;
}

impl ValidateProfile for GpuProfile {
	fn validate(&self) -> Result<(), ProfileRule> {
		use ProfileRule::*;
		let f = &self.figures;
		let rules = [
			(!self.name.is_empty(), EmptyName),
			(f.vram_mib > 0, ZeroMemory),
			(Precision::CHALLENGED.iter().any(|q| f.challenged_in(*q)), NoChallengedPrecision),
			(f.points() > 0, NoPoints),
			(f.tolerance_percent < 100, Tolerance),
			((f.mem_read_mps == 0) == (f.mem_parent_mps == 0), OneMemoryRate),
		];
		match rules.into_iter().find(|(ok, _)| !ok) {
			Some((_, broken)) => Err(broken),
			None => Ok(()),
		}
	}
}

/// The on-chain form of a named profile (the default table's or a genesis config's); `None` if
/// the name is longer than [`MaxNameLen`] (no default's is).
pub fn on_chain(name: &str, figures: ProfileFigures) -> Option<GpuProfile> {
	Some(Profile { name: name.as_bytes().to_vec().try_into().ok()?, figures })
}

/// Name of the profile a dev chain uses for miners without a GPU.
pub const CPU_REFERENCE: &str = pog_primitives::profiles::CPU_REFERENCE;
/// Name of the per-core CPU profile (a miner's declared cores, challenged as one unit).
pub const CPU_CORE: &str = pog_primitives::profiles::CPU_CORE;

/// The default table (`pog_primitives::profiles::DEFAULT_PROFILES`) as genesis writes it.
pub fn default_profiles() -> Vec<GenesisProfile> {
	pog_primitives::profiles::DEFAULT_PROFILES
		.iter()
		.map(|p| Profile { name: p.name.into(), figures: p.figures })
		.collect()
}

/// The default table without [`CPU_REFERENCE`], the dev chains' CPU profile: what a production
/// chain starts with. Its GPUs keep the ids 0, 1, … of the default table.
pub fn production_profiles() -> Vec<GenesisProfile> {
	default_profiles().into_iter().filter(|p| p.name != CPU_REFERENCE).collect()
}

mod calls {
	use frame_support::{ensure, pallet_prelude::*};

	use super::{GpuProfile, ValidateProfile};
	use crate::pallet::*;
	use pog_primitives::challenge::ProfileId;

	impl<T: Config> Pallet<T> {
		pub(crate) fn validate_profile(p: &GpuProfile) -> DispatchResult {
			p.validate().map_err(Error::<T>::InvalidProfile)?;
			let config = Configuration::<T>::get();
			ensure!(
				Self::sizes_of(p.figures)
					.iter()
					.all(|s| Self::verifier_ns(s, &config) <= pog_primitives::verify::MAX_VERIFY_NS),
				Error::<T>::InvalidProfile(super::ProfileRule::VerifierTooCostly)
			);
			let f = &p.figures;
			ensure!(
				pog_primitives::pricing::alias_outruns_native(&f.gflops, f.int8_gops, f.tolerance_percent).is_none(),
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
