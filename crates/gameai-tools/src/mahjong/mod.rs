//! The mahjong solitaire harness's world: the games ([`solitaire`]) and the policies
//! the engine is compared with there ([`baseline`], [`legacy`] and its fallback
//! [`estimate`]). None of them is served.

pub mod baseline;
pub mod estimate;
pub mod legacy;
pub mod solitaire;
