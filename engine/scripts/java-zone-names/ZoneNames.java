import java.nio.file.*;
import java.time.*;
import java.time.zone.*;
import java.util.*;

// Regenerates engine/src/functions/scalar/format/java-zone-table.ts from the JDK that runs it (use
// the JDK Trino is built with): with zones.txt holding the engine's zone names, one a line
// (Intl.supportedValuesOf('timeZone') and ZONE_ALIASES of engine/src/types/zone-aliases.ts):
//   javac ZoneNames.java && java -cp . ZoneNames zones.txt > names.txt
// then names.txt's lines replace the table's.
//
// Prints, per zone Java knows: its US-English short standard and daylight names (what Formatter's
// %tZ prints) and the instants where its standard offset changes, as a TypeScript table.
public class ZoneNames {
    public static void main(String[] args) throws Exception {
        List<String> zones = Files.readAllLines(Path.of(args[0]));
        Set<String> known = ZoneId.getAvailableZoneIds();
        long from = ZonedDateTime.of(1800, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).toEpochSecond();
        long to = ZonedDateTime.of(2100, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).toEpochSecond();
        StringBuilder out = new StringBuilder();
        for (String zone : zones) {
            if (zone.isEmpty() || !known.contains(zone)) continue;
            ZoneRules rules = ZoneId.of(zone).getRules();
            TimeZone tz = TimeZone.getTimeZone(zone);
            String standard = tz.getDisplayName(false, TimeZone.SHORT, Locale.US);
            String daylight = tz.getDisplayName(true, TimeZone.SHORT, Locale.US);
            List<String> changes = new ArrayList<>();
            int current = rules.getStandardOffset(Instant.ofEpochSecond(from)).getTotalSeconds();
            changes.add(Integer.toString(current));
            long step = 86400L * 7;
            for (long t = from; t < to; t += step) {
                int next = rules.getStandardOffset(Instant.ofEpochSecond(t + step)).getTotalSeconds();
                if (next != current) {
                    long lo = t, hi = t + step; // standard(lo) == current, standard(hi) == next
                    while (hi - lo > 1) {
                        long mid = lo + (hi - lo) / 2;
                        if (rules.getStandardOffset(Instant.ofEpochSecond(mid)).getTotalSeconds() == current) lo = mid; else hi = mid;
                    }
                    changes.add(hi + "," + next);
                    current = next;
                }
            }
            out.append(zone).append('|').append(standard).append('|').append(daylight).append('|').append(String.join(";", changes)).append('\n');
        }
        System.out.print(out);
    }
}
