//! Issue 36's learned evaluation for the Dou Dizhu search, offline side: the position
//! generator ([`positions`], binary `doudizhu-positions`) and the logistic fit with its
//! calibration ([`fit`], binary `doudizhu-fit`). The model itself, its features and the
//! committed weights are in the library, `gameai::doudizhu::search::learned`.

pub mod fit;
pub mod positions;
