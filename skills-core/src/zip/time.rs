//! MS-DOS timestamps, the only time a plain zip entry holds.
//!
//! A pack must be the same bytes on every machine, so every entry carries
//! one time: `SOURCE_DATE_EPOCH` when it is set, else the earliest DOS
//! time, 1980-01-01 00:00:00 (the reproducible-builds convention).

/// An MS-DOS date and time, the only timestamp a plain zip entry has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DosTime {
    date: u16,
    time: u16,
}

impl DosTime {
    /// 1980-01-01 00:00:00, the earliest DOS time.
    pub const EPOCH: DosTime = DosTime {
        date: 1 << 5 | 1,
        time: 0,
    };

    /// The DOS time of a Unix time, in UTC, rounded down to an even second
    /// and clamped to 1980-01-01 00:00:00 ..= 2107-12-31 23:59:58.
    pub fn from_unix(secs: i64) -> DosTime {
        const MIN: i64 = 315_532_800; // 1980-01-01 00:00:00
        const MAX: i64 = 4_354_819_199; // 2107-12-31 23:59:59
        let secs = secs.clamp(MIN, MAX);
        let (days, day_secs) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (year, month, day) = civil_from_days(days);
        let (hour, minute, second) = (day_secs / 3600, day_secs / 60 % 60, day_secs % 60);
        DosTime {
            date: ((year - 1980) << 9 | month << 5 | day) as u16,
            time: (hour << 11 | minute << 5 | (second / 2)) as u16,
        }
    }

    /// `SOURCE_DATE_EPOCH` when it is set and not empty, else [`EPOCH`](Self::EPOCH).
    /// A value that is not an integer number of seconds is an error.
    pub fn from_env() -> Result<DosTime, String> {
        match std::env::var("SOURCE_DATE_EPOCH") {
            Ok(value) => Self::from_epoch_var(&value),
            Err(std::env::VarError::NotPresent) => Ok(Self::EPOCH),
            Err(std::env::VarError::NotUnicode(value)) => Err(format!(
                "`SOURCE_DATE_EPOCH` is {value:?}, not an integer number of seconds"
            )),
        }
    }

    fn from_epoch_var(value: &str) -> Result<DosTime, String> {
        if value.is_empty() {
            return Ok(Self::EPOCH);
        }
        value.parse().map(Self::from_unix).map_err(|_| {
            format!("`SOURCE_DATE_EPOCH` is `{value}`, not an integer number of seconds")
        })
    }

    /// Appends the time, then the date, as a header holds them.
    pub(super) fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.time.to_le_bytes());
        out.extend_from_slice(&self.date.to_le_bytes());
    }
}

/// (year, month, day) of a day count from 1970-01-01, proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dos_times() {
        let t = |secs| {
            let d = DosTime::from_unix(secs);
            (d.date, d.time)
        };
        assert_eq!(DosTime::from_unix(315_532_800), DosTime::EPOCH);
        assert_eq!(
            DosTime::EPOCH,
            DosTime {
                date: 0x21,
                time: 0
            }
        );
        assert_eq!(t(1_709_214_331), (0x585d, 0x6daf)); // 2024-02-29 13:45:31
        assert_eq!(t(1_700_000_000), (0x576e, 0xb1aa)); // 2023-11-14 22:13:20
        assert_eq!(t(946_684_799), (0x279f, 0xbf7d)); // 1999-12-31 23:59:59
        for early in [i64::MIN, -1, 0, 315_532_799] {
            assert_eq!(DosTime::from_unix(early), DosTime::EPOCH, "{early}");
        }
        for late in [4_354_819_199, 4_354_819_200, i64::MAX] {
            assert_eq!(t(late), (0xff9f, 0xbf7d), "{late}"); // 2107-12-31 23:59:58
        }
    }

    #[test]
    fn source_date_epoch() {
        assert_eq!(DosTime::from_epoch_var(""), Ok(DosTime::EPOCH));
        assert_eq!(
            DosTime::from_epoch_var("1700000000"),
            Ok(DosTime::from_unix(1_700_000_000))
        );
        assert_eq!(
            DosTime::from_epoch_var("yesterday"),
            Err("`SOURCE_DATE_EPOCH` is `yesterday`, not an integer number of seconds".into())
        );
        assert!(DosTime::from_epoch_var("1.5").is_err());
    }
}
