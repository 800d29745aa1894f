/// The tenant at a glance: its figures as charts over a range it picks (the last 30 days by default), with each
/// chart's data as CSV, webhook endpoints and failing deliveries, how the reconciliation sweeps are
/// doing, and the tenant's data-retention windows.
enum OverviewTemplate {
    static let text = """
        <h1>Overview</h1>
        <section aria-labelledby="figures">
          <h2 id="figures">Figures</h2>
          <form method="get" action="/console" class="range" id="range">
            <label>From <input type="date" name="from" value="{{from}}"></label>
            <label>To <input type="date" name="to" value="{{to}}"></label>
            <label>By <select name="step">{{#steps}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/steps}}</select></label>
            <label>App <select name="app">{{#appChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/appChoices}}</select></label>
            <button type="submit" id="show-figures">Show</button>
          </form>
          {{#rangeError}}<p class="error" role="alert" id="range-error">{{rangeError}}</p>{{/rangeError}}
          <div class="charts">
          {{#charts}}
            <figure class="card"><figcaption>{{title}} <strong>{{latest}}</strong> <span class="chart-max">{{max}}</span></figcaption>{{{svg}}}
            <div class="chart-axis" aria-hidden="true"><span>{{first}}</span><span>{{last}}</span></div>
            <a class="csv" href="{{csv}}" download>CSV</a></figure>
          {{/charts}}
          </div>
          <h3 id="cohorts-heading">Cohorts</h3>
          <p class="hint">Customers by the month of their first purchase, and the share subscribed each month since.
          <a class="csv" id="cohorts-csv" href="{{cohortsCSV}}" download>CSV</a></p>
          <div class="scroll"><table id="cohorts">
            <thead><tr><th scope="col">Cohort</th><th scope="col">Customers</th>{{#cohortHeads}}<th scope="col">{{label}}</th>{{/cohortHeads}}<th scope="col">Net revenue</th></tr></thead>
            <tbody>
            {{#cohorts}}<tr><th scope="row">{{start}}</th><td>{{customers}}</td>{{#shares}}<td>{{value}}</td>{{/shares}}<td>{{revenue}}</td></tr>{{/cohorts}}
            </tbody>
          </table></div>
          <h3 id="arpu-heading">Average revenue per user</h3>
          <p class="hint">Each month's net revenue per customer subscribed or charged in it.
          <a class="csv" id="arpu-csv" href="{{arpuCSV}}" download>CSV</a></p>
          <div class="scroll"><table id="arpu">
            <thead><tr><th scope="col">Month</th><th scope="col">Active customers</th><th scope="col">ARPU</th></tr></thead>
            <tbody>
            {{#arpu}}<tr><th scope="row">{{start}}</th><td>{{active}}</td><td>{{arpu}}</td></tr>{{/arpu}}
            </tbody>
          </table></div>
        </section>
        <section aria-labelledby="apps">
          <h2 id="apps">Apps</h2>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Bundle ID</th><th scope="col">Environments</th><th scope="col">Keys</th></tr></thead>
            <tbody>
            {{#apps}}<tr><td>{{bundleId}}</td><td>{{environments}}</td><td>{{keys}}</td></tr>{{/apps}}
            {{^apps}}<tr><td colspan="3">No apps yet.</td></tr>{{/apps}}
            </tbody>
          </table></div>
        </section>
        <section aria-labelledby="catalog">
          <h2 id="catalog">Catalog</h2>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Entitlement</th><th scope="col">Unlocked by</th><th scope="col">Description</th></tr></thead>
            <tbody>
            {{#entitlements}}<tr><td>{{name}}</td><td>{{products}}</td><td>{{description}}</td></tr>{{/entitlements}}
            {{^entitlements}}<tr><td colspan="3">No entitlements yet (catalog.set, or the tenant's manifest).</td></tr>{{/entitlements}}
            </tbody>
          </table></div>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Product</th><th scope="col">App</th><th scope="col">Type</th><th scope="col">Name</th></tr></thead>
            <tbody>
            {{#products}}<tr><td>{{productId}}</td><td>{{bundleId}}</td><td>{{type}}</td><td>{{displayName}}</td></tr>{{/products}}
            {{^products}}<tr><td colspan="4">No products yet.</td></tr>{{/products}}
            </tbody>
          </table></div>
        </section>
        <section aria-labelledby="sweeps">
          <h2 id="sweeps">Notification sweeps</h2>
          <p class="hint">{{reconciliation}}</p>
          <div class="scroll"><table>
            <thead><tr><th scope="col">App</th><th scope="col">Environment</th><th scope="col">Swept until</th><th scope="col">Last run</th>
            <th scope="col">Runs</th><th scope="col">Found</th><th scope="col">Applied</th><th scope="col">Failed</th><th scope="col">Last error</th></tr></thead>
            <tbody>
            {{#sweeps}}<tr><td>{{bundleId}}</td><td>{{environment}}</td><td>{{sweptUntil}}</td><td>{{lastRun}}</td><td>{{runs}}</td>
            <td>{{found}}</td><td>{{applied}}</td><td>{{failed}}</td><td>{{lastError}}</td></tr>{{/sweeps}}
            {{^sweeps}}<tr><td colspan="9">No sweep has run yet.</td></tr>{{/sweeps}}
            </tbody>
          </table></div>
        </section>
        <section aria-labelledby="webhooks">
          <h2 id="webhooks">Webhook endpoints</h2>
          <div class="scroll"><table>
            <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th></tr></thead>
            <tbody>
            {{#webhooks}}<tr><td>{{url}}</td><td>{{eventTypes}}</td><td>{{state}}</td></tr>{{/webhooks}}
            {{^webhooks}}<tr><td colspan="3">No endpoints.</td></tr>{{/webhooks}}
            </tbody>
          </table></div>
          <h3>Failing deliveries</h3>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Event</th><th scope="col">Endpoint</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Status</th></tr></thead>
            <tbody>
            {{#failing}}<tr><td>{{eventType}}</td><td>{{url}}</td><td>{{attempts}}</td><td>{{lastError}}</td><td>{{status}}</td></tr>{{/failing}}
            {{^failing}}<tr><td colspan="5">None failing.</td></tr>{{/failing}}
            </tbody>
          </table></div>
        </section>
        <section aria-labelledby="retention">
          <h2 id="retention">Data retention</h2>
          <p class="hint">How long Storegate keeps each kind of data for this tenant; older is deleted about hourly
          (the tenant's manifest or dataRetention.set change it).</p>
          <div class="scroll"><table id="retention-windows">
            <thead><tr><th scope="col">Data</th><th scope="col">Kept for</th><th scope="col">Set by</th><th scope="col">Deleted so far</th></tr></thead>
            <tbody>
            {{#retention}}<tr data-kind="{{kind}}"><td>{{label}}</td><td>{{keptFor}}</td><td>{{setBy}}</td><td>{{deleted}}</td></tr>{{/retention}}
            </tbody>
          </table></div>
        </section>
        """
}
