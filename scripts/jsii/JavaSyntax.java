// Parses Java sources with the JDK's own compiler front end and reports syntax errors only:
// no symbol is resolved, so the jsii runtime and the cdk8s jars (on Maven Central, which this
// machine does not reach) are not needed. Run as a single-file program (Java 11 or newer):
//
//   java scripts/jsii/JavaSyntax.java FILE...
//
// Prints one line per syntax error (`file:line: message`) and `parsed N files`; exits 1 on any
// error, 2 when no file was given.
import com.sun.source.util.JavacTask;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaSyntax {
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: java JavaSyntax.java FILE...");
      System.exit(2);
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<File> files = new ArrayList<>();
    for (String a : args) files.add(new File(a));
    try (StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, List.of("-proc:none"), null, fm.getJavaFileObjectsFromFiles(files));
      task.parse();
    }
    int errors = 0;
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) continue;
      errors++;
      String source = d.getSource() == null ? "<unknown>" : d.getSource().getName();
      System.out.println(source + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
    }
    System.out.println("parsed " + files.size() + " files");
    System.exit(errors == 0 ? 0 : 1);
  }
}
