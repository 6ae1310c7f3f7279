// IANA zone names that ICU accepts but Intl.supportedValuesOf('timeZone') leaves out (links such as
// Asia/Kolkata, US/Pacific, Europe/Kyiv): zones keep the name they were written with, as in Trino.
// Generated from the tzdata zone list; order matters (zone keys follow it), so only append.

export const ZONE_ALIASES: readonly string[] = [
  'Africa/Asmara', 'Africa/Timbuktu', 'America/Argentina/Buenos_Aires', 'America/Argentina/Catamarca',
  'America/Argentina/ComodRivadavia', 'America/Argentina/Cordoba', 'America/Argentina/Jujuy',
  'America/Argentina/Mendoza', 'America/Atikokan', 'America/Atka', 'America/Ensenada', 'America/Fort_Wayne',
  'America/Indiana/Indianapolis', 'America/Kentucky/Louisville', 'America/Knox_IN', 'America/Montreal',
  'America/Nipigon', 'America/Nuuk', 'America/Pangnirtung', 'America/Porto_Acre', 'America/Rainy_River',
  'America/Rosario', 'America/Santa_Isabel', 'America/Shiprock', 'America/Thunder_Bay', 'America/Virgin',
  'America/Yellowknife', 'Antarctica/South_Pole', 'Asia/Ashkhabad', 'Asia/Choibalsan', 'Asia/Chongqing',
  'Asia/Chungking', 'Asia/Dacca', 'Asia/Harbin', 'Asia/Ho_Chi_Minh', 'Asia/Istanbul', 'Asia/Kashgar',
  'Asia/Kathmandu', 'Asia/Kolkata', 'Asia/Macao', 'Asia/Tel_Aviv', 'Asia/Thimbu', 'Asia/Ujung_Pandang',
  'Asia/Ulan_Bator', 'Asia/Yangon', 'Atlantic/Faroe', 'Atlantic/Jan_Mayen', 'Australia/ACT',
  'Australia/Canberra', 'Australia/Currie', 'Australia/LHI', 'Australia/NSW', 'Australia/North',
  'Australia/Queensland', 'Australia/South', 'Australia/Tasmania', 'Australia/Victoria', 'Australia/West',
  'Australia/Yancowinna', 'Brazil/Acre', 'Brazil/DeNoronha', 'Brazil/East', 'Brazil/West', 'CET', 'CST6CDT',
  'Canada/Atlantic', 'Canada/Central', 'Canada/Eastern', 'Canada/Mountain', 'Canada/Newfoundland',
  'Canada/Pacific', 'Canada/Saskatchewan', 'Canada/Yukon', 'Chile/Continental', 'Chile/EasterIsland', 'Cuba',
  'EET', 'EST', 'EST5EDT', 'Egypt', 'Eire', 'Europe/Belfast', 'Europe/Kyiv', 'Europe/Nicosia',
  'Europe/Tiraspol', 'Europe/Uzhgorod', 'Europe/Zaporozhye', 'GB', 'GB-Eire', 'HST', 'Hongkong', 'Iceland',
  'Iran', 'Israel', 'Jamaica', 'Japan', 'Kwajalein', 'Libya', 'MET', 'MST', 'MST7MDT', 'Mexico/BajaNorte',
  'Mexico/BajaSur', 'Mexico/General', 'NZ', 'NZ-CHAT', 'Navajo', 'PRC', 'PST8PDT', 'Pacific/Chuuk',
  'Pacific/Johnston', 'Pacific/Kanton', 'Pacific/Pohnpei', 'Pacific/Samoa', 'Pacific/Yap', 'Poland',
  'Portugal', 'ROC', 'ROK', 'Singapore', 'Turkey', 'US/Alaska', 'US/Aleutian', 'US/Arizona', 'US/Central',
  'US/East-Indiana', 'US/Eastern', 'US/Hawaii', 'US/Indiana-Starke', 'US/Michigan', 'US/Mountain',
  'US/Pacific', 'US/Samoa', 'W-SU', 'WET',
];
